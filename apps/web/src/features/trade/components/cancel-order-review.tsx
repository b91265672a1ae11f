import type { MarketInfo, TradeOrder } from '@solpledge/contract/client'
import { useTranslation } from 'react-i18next'
import { ReviewSheet } from '@/components/review-sheet.tsx'
import { useCancelOrder } from '../api/cancel-order.ts'
import { orderFacts } from './order-facts.ts'

/** What the review of a cancel shows of the order: which one, and the unfilled rest that leaves the book. */
const REVIEWED = ['orderSn', 'type', 'price', 'remaining']

interface CancelOrderReviewProps {
  /** The order to cancel; null: closed. */
  order: TradeOrder | null
  market: MarketInfo
  onClose: () => void
}

/**
 * The review before a cancel, as before every money action: the order, the question naming its number
 * (docs/product.md#quick-trade).
 */
export function CancelOrderReview({ order, market, onClose }: CancelOrderReviewProps) {
  const { t, i18n } = useTranslation(['ui', 'msg'])
  const cancel = useCancelOrder(market, onClose)
  const rows = order
    ? orderFacts(t, order, market, i18n.resolvedLanguage)
        .filter((fact) => REVIEWED.includes(fact.id))
        // The screen behind shows the same facts with their test ids.
        .map((fact) => ({ ...fact, testId: undefined }))
    : []
  return (
    <ReviewSheet
      open={order !== null}
      title={t('trade.cancel.title')}
      rows={rows}
      note={
        order && <span data-testid="cancel-question">{t('msg:trade.confirmCancel', { orderSn: order.order_sn })}</span>
      }
      pending={cancel.isPending}
      pendingLabel={t('trade.cancel.cancelling')}
      onConfirm={() => order && cancel.mutate(order.id)}
      onCancel={onClose}
    />
  )
}
