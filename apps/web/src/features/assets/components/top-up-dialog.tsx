import type { AssetBalance } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { Modal } from '@/components/modal.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { ReviewSheet } from '@/components/review-sheet.tsx'
import { usePayment } from '@/lib/payment/use-payment.ts'
import { useSignedInAddress } from '@/lib/session.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useReviewedAmount } from '@/lib/use-reviewed-amount.ts'
import { validateTopUpAmount } from '../utils/validate-amount.ts'
import { AmountField } from './amount-field.tsx'

interface TopUpDialogProps {
  open: boolean
  asset: AssetBalance | null
  /** The wallet's on-chain balance of the asset: base units, null without a token account, undefined if unknown. */
  walletBalance: bigint | null | undefined
  onClose: () => void
}

/**
 * Top-up (recharge): an amount paid from the connected wallet to the platform, credited once confirmed; reviewed
 * (amount, from which wallet, what is credited) before the wallet is asked to sign.
 */
export function TopUpDialog({ open, asset, walletBalance, onClose }: TopUpDialogProps) {
  const { t } = useTranslation()
  const address = useSignedInAddress()
  const format = useFormat()
  const { text, setText, review, setReview, reset, submit } = useReviewedAmount()
  const close = () => {
    reset()
    onClose()
  }
  const { pay, pending, step } = usePayment({ onDone: close })
  const check = () => (asset && !pending ? validateTopUpAmount(text, asset.decimals, walletBalance) : undefined)
  const amount = (units: bigint) => (asset ? format.money(units, asset) : '')

  const balanceText = () => {
    if (!asset) return ''
    if (walletBalance === undefined) return t('assets.topUpDialog.walletBalanceUnknown')
    return t('assets.topUpDialog.walletBalance', {
      amount: format.amount(walletBalance ?? 0n, asset),
      coin: asset.symbol,
    })
  }

  return (
    <Modal
      open={open}
      title={t('assets.topUpDialog.title', { coin: asset?.symbol ?? '' })}
      onClose={pending ? undefined : close}
      testId="recharge-dialog"
    >
      {asset && review !== null && (
        <ReviewSheet
          open
          title={t('review.topUp.title', { coin: asset.symbol })}
          rows={[
            { id: 'amount', label: t('review.amount'), value: amount(review), testId: 'review-amount' },
            { id: 'from', label: t('review.topUp.from'), value: address, testId: 'review-address' },
            { id: 'credit', label: t('review.topUp.credited'), value: amount(review), testId: 'review-receive' },
          ]}
          note={t('review.topUp.note')}
          pending={pending}
          pendingLabel={step ? t(`payment.steps.${step}`) : undefined}
          onConfirm={() => pay({ intent: { purpose: 'recharge', coin: asset.coin, amount: review.toString() } })}
          onCancel={() => setReview(null)}
        />
      )}
      {asset && (
        <form className="amount-form" onSubmit={submit(check)} noValidate>
          <AmountField
            name="recharge"
            asset={asset}
            value={text}
            onChange={setText}
            max={walletBalance}
            disabled={pending}
          />
          <p className="amount-form-hint" data-testid="recharge-wallet-balance">
            {balanceText()}
          </p>
          <p className="amount-form-note">{t('assets.topUpDialog.note')}</p>
          <PrimaryButton type="submit" data-testid="recharge-submit" disabled={pending}>
            {t('assets.topUpDialog.submit')}
          </PrimaryButton>
        </form>
      )}
    </Modal>
  )
}
