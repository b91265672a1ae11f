import type { TradeOrder } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { Modal } from '@/components/modal.tsx'
import { PrimaryButton } from '@/components/primary-button.tsx'
import { useCancelOrder } from '../api/cancel-order.ts'

interface CancelOrderDialogProps {
  /** The order to cancel; null: closed. */
  order: TradeOrder | null
  onClose: () => void
}

/** The confirmation question naming the order number (SPEC §4), then the cancel. */
export function CancelOrderDialog({ order, onClose }: CancelOrderDialogProps) {
  const { t } = useTranslation(['ui', 'msg'])
  const cancel = useCancelOrder(onClose)
  const pending = cancel.isPending
  return (
    <Modal
      open={order !== null}
      title={t('trade.cancel.title')}
      onClose={pending ? undefined : onClose}
      testId="cancel-dialog"
    >
      {order && (
        <div className="cancel-dialog">
          <p data-testid="cancel-question">{t('msg:trade.confirmCancel', { orderSn: order.order_sn })}</p>
          <PrimaryButton
            data-testid="cancel-confirm"
            disabled={pending}
            aria-busy={pending}
            onClick={() => cancel.mutate(order.id)}
          >
            {pending ? t('trade.cancel.cancelling') : t('trade.cancel.confirm')}
          </PrimaryButton>
          <button
            type="button"
            className="trade-outline-button"
            data-testid="cancel-keep"
            disabled={pending}
            onClick={onClose}
          >
            {t('trade.cancel.keep')}
          </button>
        </div>
      )}
    </Modal>
  )
}
