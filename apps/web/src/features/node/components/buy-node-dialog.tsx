import { formatAmount } from '@solpledge/contract'
import { useTranslation } from 'react-i18next'
import { Modal } from '../../../components/modal.tsx'
import { PrimaryButton } from '../../../components/primary-button.tsx'
import { USDT_DECIMALS } from '../../../lib/format.ts'
import { findAsset, useUserWallet } from '../../../lib/user-wallet.ts'
import { useBuyNode } from '../api/buy-node.ts'
import type { NodeLevel } from '../api/get-node-levels.ts'
import { levelName } from './level-name.ts'

interface BuyNodeDialogProps {
  open: boolean
  level: NodeLevel | null
  onClose: () => void
}

/** Confirms a purchase: the price against the user's available USDT; paid from the asset balance. */
export function BuyNodeDialog({ open, level, onClose }: BuyNodeDialogProps) {
  const { t } = useTranslation()
  const { data: assets } = useUserWallet()
  const buy = useBuyNode(onClose)
  const pending = buy.isPending
  const usdt = findAsset(assets, 'USDT')
  const usdtDecimals = usdt?.decimals ?? USDT_DECIMALS

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
              <dd data-testid="node-confirm-price">{formatAmount(level.price_usdt, USDT_DECIMALS)} USDT</dd>
            </div>
            <div>
              <dt>{t('node.confirm.available')}</dt>
              <dd data-testid="node-confirm-available">
                {usdt ? `${formatAmount(usdt.available, usdtDecimals)} USDT` : assets ? '0 USDT' : '—'}
              </dd>
            </div>
          </dl>
          <p className="muted-note">{t('node.confirm.note')}</p>
          <PrimaryButton
            data-testid="node-confirm-buy"
            disabled={pending}
            aria-busy={pending}
            onClick={() => buy.mutate(level.code)}
          >
            {pending ? t('node.confirm.submitting') : t('node.confirm.submit')}
          </PrimaryButton>
        </div>
      )}
    </Modal>
  )
}
