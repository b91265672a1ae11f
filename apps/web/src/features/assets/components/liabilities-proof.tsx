import type { LiabilityProof, LiabilityRoot } from '@solpledge/contract/client'
import type { InclusionFailure } from '@solpledge/proof'
import { useTranslation } from 'react-i18next'
import { SignatureLink } from '../../../components/signature-link.tsx'
import { TokenIcon } from '../../../components/token-icon.tsx'
import { useClientConfig } from '../../../lib/client-config.ts'
import { formatDateTime } from '../../../lib/format.ts'
import { useSignedInAddress } from '../../../lib/session.ts'
import { shorten } from '../../../lib/shorten.ts'
import { useFormat } from '../../../lib/use-format.ts'
import { downloadProof, useInclusion, useLiabilitiesProof, useLiabilitiesRoot } from '../api/get-liabilities.ts'

/** What the user is told when the check fails, per reason (the package's message stays in the title, in English). */
const FAILURE: Record<InclusionFailure, 'proof' | 'unpublished' | 'rpc' | 'missing' | 'memo'> = {
  malformed: 'proof',
  address: 'proof',
  overflow: 'proof',
  leafIndex: 'proof',
  rootMismatch: 'proof',
  unpublished: 'unpublished',
  rpc: 'rpc',
  txNotFound: 'missing',
  txFailed: 'memo',
  memoMismatch: 'memo',
  signer: 'memo',
}

/**
 * Proof of liabilities (docs/proof-of-liabilities.md), in the solvency section: the latest snapshot's published root
 * against the reserves at its slot, and for a signed-in user the check — in this browser, against the chain — that
 * their balance is one of the tree's leaves, with the proof to download for `npm run verify-proof`.
 */
export function LiabilitiesProof() {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  const { data: snapshot, isError } = useLiabilitiesRoot()
  return (
    <section className="liabilities" data-testid="liabilities" aria-labelledby="liabilities-title">
      <h3 id="liabilities-title">{t('assets.proof.title')}</h3>
      <p className="muted-note">{t('assets.proof.hint')}</p>
      {snapshot === undefined ? (
        <p className="muted-note">{isError ? t('assets.proof.unavailable') : t('common.loading')}</p>
      ) : snapshot === null ? (
        <p className="liabilities-none" data-testid="liabilities-none">
          {t('assets.proof.none')}
        </p>
      ) : (
        <Snapshot snapshot={snapshot} address={address} />
      )}
    </section>
  )
}

function Snapshot({ snapshot, address }: { snapshot: LiabilityRoot; address: string | null }) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  return (
    <>
      <p className="liabilities-meta" data-testid="liabilities-snapshot">
        {t('assets.proof.snapshot', {
          id: snapshot.snapshot_id,
          time: formatDateTime(snapshot.taken_at, i18n.resolvedLanguage),
          slot: snapshot.slot,
        })}
      </p>
      <ul className="solvency-rows">
        {snapshot.assets.map((asset, i) => {
          const owed = snapshot.root.sums[i] ?? '0'
          const reserves = snapshot.reserves.find((row) => row.coin === asset.coin)?.holdings ?? '0'
          const covered = BigInt(reserves) >= BigInt(owed)
          const amount = (value: string) => format.amount(value, { symbol: asset.coin, decimals: asset.decimals })
          return (
            <li key={asset.coin} data-testid="liabilities-row" data-coin={asset.coin} data-covered={covered}>
              <div className="solvency-head">
                <span className="asset-name">
                  <TokenIcon symbol={asset.coin} />
                  <span className="asset-symbol">{asset.coin}</span>
                </span>
                <span className={covered ? 'badge badge-ok' : 'badge badge-bad'}>
                  {covered ? t('assets.solvency.covered') : t('assets.solvency.notCovered')}
                </span>
              </div>
              <dl className="asset-split">
                <div>
                  <dt>{t('assets.proof.owed')}</dt>
                  <dd data-testid="liabilities-owed">{amount(owed)}</dd>
                </div>
                <div>
                  <dt>{t('assets.proof.reserves')}</dt>
                  <dd data-testid="liabilities-reserves">{amount(reserves)}</dd>
                </div>
              </dl>
            </li>
          )
        })}
      </ul>
      <p className="liabilities-meta" data-testid="liabilities-published">
        {snapshot.signature ? (
          <>
            {t('assets.proof.published')}{' '}
            <SignatureLink signature={snapshot.signature} testId="liabilities-signature" keep={8} />
          </>
        ) : (
          t('assets.proof.publishing')
        )}
      </p>
      {address ? (
        <Inclusion address={address} snapshot={snapshot} />
      ) : (
        <p className="muted-note">{t('assets.proof.signIn')}</p>
      )}
    </>
  )
}

function Inclusion({ address, snapshot }: { address: string; snapshot: LiabilityRoot }) {
  const snapshotId = snapshot.snapshot_id
  const { t } = useTranslation()
  const format = useFormat()
  const { rpcUrl } = useClientConfig()
  const proof = useLiabilitiesProof(address, snapshotId)
  const inclusion = useInclusion(proof.data, snapshot, address, rpcUrl)
  if (proof.isError) {
    return (
      <p className="liabilities-verdict" data-testid="inclusion" data-state="absent">
        {proof.error.message}
      </p>
    )
  }
  const amounts = (data: LiabilityProof) =>
    data.assets
      .map((asset, i) =>
        format.money(data.amounts[i] ?? '0', { symbol: asset.coin, decimals: asset.decimals }, 'exact'),
      )
      .join(' · ')
  const result = inclusion.data
  return (
    <div className="liabilities-inclusion">
      {!result ? (
        <p className="liabilities-verdict" data-testid="inclusion" data-state="checking">
          {inclusion.isError ? t('assets.proof.failed.rpc') : t('assets.proof.checking')}
        </p>
      ) : result.ok ? (
        <div className="liabilities-verdict" data-testid="inclusion" data-state="included">
          <p>
            <span className="badge badge-ok">✓</span> {t('assets.proof.included', { id: snapshotId })}
          </p>
          {proof.data && (
            // The balances as the snapshot recorded them, to the base unit: what the proof file proves.
            <p className="muted-note" data-exact>
              {t('assets.proof.yours', { amounts: amounts(proof.data) })}
            </p>
          )}
          <p className="muted-note" title={result.transaction.signature}>
            {t('assets.proof.onChain', {
              signature: shorten(result.transaction.signature, 8),
              signers: result.transaction.signers.map((signer) => shorten(signer)).join(', '),
            })}
          </p>
        </div>
      ) : (
        <div className="liabilities-verdict" data-testid="inclusion" data-state="failed" data-reason={result.reason}>
          <p role="alert" title={result.message}>
            <span className="badge badge-bad">✗</span> {t(`assets.proof.failed.${FAILURE[result.reason]}`)}
          </p>
          <button type="button" className="asset-action" onClick={() => inclusion.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {proof.data && (
        <button
          type="button"
          className="asset-action"
          data-testid="proof-download"
          onClick={() => proof.data && downloadProof(proof.data, address)}
        >
          {t('assets.proof.download')}
        </button>
      )}
      <p className="muted-note liabilities-cli">
        {t('assets.proof.cli', { file: `solpledge-proof-${snapshotId}.json`, rpcUrl })}
      </p>
    </div>
  )
}
