import { useTranslation } from 'react-i18next'
import { Modal } from '../../../components/modal.tsx'
import { PrimaryButton } from '../../../components/primary-button.tsx'
import { useTokenBalances } from '../../../lib/chain-balances.ts'
import { USDT_DECIMALS } from '../../../lib/format.ts'
import { usePayment } from '../../../lib/payment/use-payment.ts'
import { useFormat } from '../../../lib/use-format.ts'
import { findAsset, useUserWallet } from '../../../lib/user-wallet.ts'
import { useBuyNode } from '../api/buy-node.ts'
import type { NodeLevel } from '../api/get-node-levels.ts'
import { levelName } from './level-name.ts'

interface BuyNodeDialogProps {
  open: boolean
  level: NodeLevel | null
  onClose: () => void
  /** A chain payment arrived but the node could not be made (e.g. sold out meanwhile): the reason to keep showing. */
  onRefused: (text: string) => void
}

/**
 * Confirms a purchase: the price against the user's available USDT and the wallet's USDT; paid from the asset balance
 * or on chain from the wallet (a payment intent of purpose node).
 */
export function BuyNodeDialog({ open, level, onClose, onRefused }: BuyNodeDialogProps) {
  const { t } = useTranslation()
  const format = useFormat()
  const { data: assets } = useUserWallet()
  const usdt = findAsset(assets, 'USDT')
  const usdtDecimals = usdt?.decimals ?? USDT_DECIMALS
  const tokens = useTokenBalances(usdt?.mint ? [usdt.mint] : [])
  const walletUsdt = usdt?.mint ? tokens.data?.[usdt.mint] : undefined

  const buy = useBuyNode(onClose)
  const chain = usePayment({
    onDone: (refusal) => {
      if (refusal) onRefused(refusal)
      onClose()
    },
  })
  const pending = buy.isPending || chain.pending
  const usdtText = (units: bigint | string) => format.money(units, { symbol: 'USDT', decimals: usdtDecimals })

  return (
    <Modal
      open={open}
      title={t('node.confirm.title', { level: level ? levelName(t, level.code) : '' })}
      onClose={pending ? undefined : onClose}
      testId="node-confirm"
    >
      {level && (
        <div className="node-confirm">
          <dl className="node-facts node-summary">
            <div>
              <dt>{t('node.confirm.price')}</dt>
              <dd data-testid="node-confirm-price">{format.usdt(level.price_usdt)}</dd>
            </div>
            <div>
              <dt>{t('node.confirm.available')}</dt>
              <dd data-testid="node-confirm-available">{usdt ? usdtText(usdt.available) : assets ? '0 USDT' : '—'}</dd>
            </div>
            <div>
              <dt>{t('node.confirm.wallet')}</dt>
              <dd data-testid="node-confirm-wallet">{walletUsdt === undefined ? '—' : usdtText(walletUsdt ?? 0n)}</dd>
            </div>
          </dl>
          <p className="muted-note">{t('node.confirm.note')}</p>
          <PrimaryButton
            data-testid="node-confirm-buy"
            disabled={pending}
            aria-busy={buy.isPending}
            onClick={() => buy.mutate(level.code)}
          >
            {buy.isPending ? t('node.confirm.submitting') : t('node.confirm.submit')}
          </PrimaryButton>
          <button
            type="button"
            className="node-chain-button"
            data-testid="node-confirm-chain"
            disabled={pending}
            aria-busy={chain.pending}
            onClick={() => chain.pay({ intent: { purpose: 'node', level: level.code } })}
          >
            {chain.step ? t(`payment.steps.${chain.step}`) : t('node.confirm.submitChain')}
          </button>
        </div>
      )}
    </Modal>
  )
}
