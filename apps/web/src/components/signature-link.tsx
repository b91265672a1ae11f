import { useTranslation } from 'react-i18next'
import { useClientConfig } from '@/lib/client-config.ts'
import { copyShortcut, copyText } from '@/lib/copy-text.ts'
import { explorerTxUrl } from '@/lib/explorer.ts'
import { shorten } from '@/lib/shorten.ts'
import { toast } from '@/lib/toast.ts'
import './signature-link.css'

interface SignatureLinkProps {
  /** A transaction signature (base58). */
  signature: string
  /** Test id of the whole; `<testId>-link` and `<testId>-copy` for its parts. */
  testId?: string
  /** Characters kept at each end of the shortened signature. */
  keep?: number
}

/**
 * An on-chain transaction as a receipt shows it: its shortened signature linking to the Solana explorer of the app's
 * cluster (lib/explorer.ts), and a button that copies the whole signature.
 */
export function SignatureLink({ signature, testId = 'signature', keep = 6 }: SignatureLinkProps) {
  const { t } = useTranslation(['ui', 'msg'])
  const chain = useClientConfig()
  const copy = async () => {
    const copied = await copyText(signature, t('msg:common.copyPrompt', { shortcut: copyShortcut() }))
    if (copied) toast.success(t('msg:common.copySuccess'))
    else toast.error(t('msg:common.copyFailed'))
  }
  return (
    <span className="signature-link" data-testid={testId}>
      <a
        href={explorerTxUrl(signature, chain)}
        target="_blank"
        rel="noreferrer"
        title={signature}
        aria-label={t('receipt.explorer', { signature: shorten(signature, keep) })}
        data-testid={`${testId}-link`}
      >
        {shorten(signature, keep)}
      </a>
      <button
        type="button"
        className="signature-copy"
        aria-label={t('receipt.copy')}
        title={t('receipt.copy')}
        data-testid={`${testId}-copy`}
        onClick={() => void copy()}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <path d="M9 9h10v12H9zM5 15H4V3h11v1" />
        </svg>
      </button>
    </span>
  )
}
