import type { AssetBalance } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { Modal } from '@/components/modal.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { ReviewSheet } from '@/components/review-sheet.tsx'
import { useSignedInAddress } from '@/lib/session.ts'
import { useFormat } from '@/lib/use-format.ts'
import { useReviewedAmount } from '@/lib/use-reviewed-amount.ts'
import { useWithdraw } from '../api/request-withdraw.ts'
import { validateWithdrawAmount, withdrawReceive } from '../utils/validate-amount.ts'
import { AmountField } from './amount-field.tsx'

interface WithdrawDialogProps {
  open: boolean
  asset: AssetBalance | null
  onClose: () => void
}

/**
 * Withdrawal: an amount of the available balance, fee included, sent to the user's own wallet; reviewed (amount, fee,
 * what arrives, where) before it is requested.
 */
export function WithdrawDialog({ open, asset, onClose }: WithdrawDialogProps) {
  const { t } = useTranslation()
  const format = useFormat()
  const address = useSignedInAddress()
  const { text, setText, review, setReview, reset, submit } = useReviewedAmount()
  const close = () => {
    reset()
    onClose()
  }
  const withdraw = useWithdraw(close)
  const pending = withdraw.isPending
  const check = () => (asset && !pending ? validateWithdrawAmount(text, asset) : undefined)

  const amount = (units: bigint | string) => (asset ? format.money(units, asset, 'exact') : '')
  const receive = asset ? withdrawReceive(text, asset) : null

  return (
    <Modal
      open={open}
      title={t('assets.withdrawDialog.title', { coin: asset?.symbol ?? '' })}
      onClose={pending ? undefined : close}
      testId="withdraw-dialog"
    >
      {asset && review !== null && (
        <ReviewSheet
          open
          title={t('review.withdraw.title', { coin: asset.symbol })}
          rows={[
            { id: 'amount', label: t('review.amount'), value: amount(review), testId: 'review-amount' },
            { id: 'fee', label: t('assets.withdrawDialog.fee'), value: amount(asset.fee), testId: 'review-fee' },
            {
              id: 'receive',
              label: t('assets.withdrawDialog.receive'),
              value: amount(review - BigInt(asset.fee)),
              testId: 'review-receive',
            },
            {
              id: 'to',
              label: t('assets.withdrawDialog.destination'),
              value: <span className="review-address">{address}</span>,
              testId: 'review-address',
            },
          ]}
          note={t('assets.withdrawDialog.note')}
          pending={pending}
          pendingLabel={t('assets.withdrawDialog.submitting')}
          onConfirm={() => withdraw.mutate({ coin: asset.coin, amount: review })}
          onCancel={() => setReview(null)}
        />
      )}
      {asset && (
        <form className="amount-form" onSubmit={submit(check)} noValidate>
          <AmountField
            name="withdraw"
            asset={asset}
            value={text}
            onChange={setText}
            max={BigInt(asset.available)}
            disabled={pending}
          />
          <dl className="withdraw-summary" data-exact>
            <div>
              <dt>{t('assets.withdrawDialog.available')}</dt>
              <dd data-testid="withdraw-available">{amount(asset.available)}</dd>
            </div>
            <div>
              <dt>{t('assets.withdrawDialog.fee')}</dt>
              <dd data-testid="withdraw-fee">{amount(asset.fee)}</dd>
            </div>
            <div>
              <dt>{t('assets.withdrawDialog.minimum')}</dt>
              <dd data-testid="withdraw-min">{amount(asset.min_atm_money)}</dd>
            </div>
            <div className="withdraw-receive">
              <dt>{t('assets.withdrawDialog.receive')}</dt>
              <dd data-testid="withdraw-receive">{receive === null ? '—' : amount(receive)}</dd>
            </div>
          </dl>
          <div className="withdraw-destination">
            <span className="amount-form-label">{t('assets.withdrawDialog.destination')}</span>
            <p className="withdraw-address" data-testid="withdraw-address">
              {address}
            </p>
          </div>
          <p className="amount-form-note">{t('assets.withdrawDialog.note')}</p>
          <PrimaryButton type="submit" data-testid="withdraw-submit" disabled={pending}>
            {t('assets.withdrawDialog.submit')}
          </PrimaryButton>
        </form>
      )}
    </Modal>
  )
}
