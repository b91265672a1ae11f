import { type ReactNode, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { type Fact, Facts } from './facts.tsx'
import { Modal } from './modal.tsx'
import { PrimaryButton } from './primary-button.tsx'
import './review-sheet.css'

export interface ReviewSheetProps {
  open: boolean
  title: ReactNode
  /** What the action does, row by row: amount, fee, what arrives or is locked, period, expected output. */
  rows: readonly Fact[]
  /** A choice that belongs to the review, e.g. how to pay; shown under the rows. */
  children?: ReactNode
  /** A line under the rows (e.g. what happens next). */
  note?: ReactNode
  /** The money call runs: Confirm shows `pendingLabel` and is disabled, the sheet cannot be dismissed. */
  pending: boolean
  /** Confirm's text while pending (default: "Processing…"); a payment passes its current step. */
  pendingLabel?: ReactNode
  /**
   * Why the action cannot go ahead as it stands (e.g. the chosen way of paying holds too little): Confirm is disabled
   * and this reason shows above it, instead of a refusal after the tap.
   */
  blocked?: ReactNode
  onConfirm: () => void
  onCancel: () => void
}

/**
 * The review before money moves (docs/architecture.md#web-app); test ids `review`, `review-confirm`, `review-cancel`
 * (one open at a time): a validated form opens it with the figures of the action; Confirm makes the one money call
 * (useMoneyAction guards it against double taps), Cancel or back returns to the form unchanged.
 */
export function ReviewSheet({
  open,
  title,
  rows,
  children,
  note,
  pending,
  pendingLabel,
  blocked,
  onConfirm,
  onCancel,
}: ReviewSheetProps) {
  const { t } = useTranslation()
  const blockedId = useId()
  return (
    <Modal open={open} title={title} onClose={pending ? undefined : onCancel} testId="review">
      <div className="review-sheet">
        <Facts className="facts-box review-rows" facts={rows} />
        {children}
        {note && <p className="review-note">{note}</p>}
        {blocked && !pending && (
          <p className="review-blocked" id={blockedId} data-testid="review-blocked" role="status">
            {blocked}
          </p>
        )}
        <PrimaryButton
          data-testid="review-confirm"
          disabled={pending || Boolean(blocked)}
          aria-busy={pending}
          aria-describedby={blocked && !pending ? blockedId : undefined}
          onClick={onConfirm}
        >
          {pending ? (pendingLabel ?? t('review.pending')) : t('review.confirm')}
        </PrimaryButton>
        <button
          type="button"
          className="outline-button"
          data-testid="review-cancel"
          disabled={pending}
          onClick={onCancel}
        >
          {t('review.cancel')}
        </button>
      </div>
    </Modal>
  )
}
