import { AppError, invalid, refuse } from '../../lib/app-error.ts'
import type { PurposeHandler } from '../intents/index.ts'
import { findNodeLevel, NODE_COIN, nodeRefusal, purchaseNode } from './service.ts'

/** What a node intent buys; the price is the intent's amount. */
interface NodeDetails {
  level: string
}

/**
 * A node paid on chain: `level`, whose USDT price is the amount, refused when the intent is made if the level is sold
 * out or already held. At fulfilment, a node that can no longer be had (sold out or already held meanwhile, or the
 * level withdrawn) is refused before anything of it is written: the payment stays in the balance.
 */
export const nodePurpose: PurposeHandler<NodeDetails> = {
  async create(db, { userId, input, need, sameCoin }) {
    const code = need(input.level, 'level')
    sameCoin(NODE_COIN)
    const level = await findNodeLevel(db, code)
    if (!level) throw invalid('node.unknownLevel')
    const refusal = await nodeRefusal(db, userId, level)
    if (refusal) throw refuse(refusal)
    return { coin: NODE_COIN, amount: level.priceUsdt, details: { level: level.code } }
  },
  async fulfil(trx, intent, details) {
    const level = await findNodeLevel(trx, details.level)
    // A level withdrawn from sale meanwhile counts as sold out.
    if (!level) return 'refused:node.soldOutPaid'
    try {
      const node = await purchaseNode(trx, intent.user_id, level, BigInt(intent.amount))
      return `applied:${node.id}`
    } catch (error) {
      if (error instanceof AppError && error.key === 'node.soldOut') return 'refused:node.soldOutPaid'
      if (error instanceof AppError && error.key === 'node.alreadyHeld') return 'refused:node.alreadyHeldPaid'
      throw error
    }
  },
  present: (details) => ({ level: details.level }),
  successKey: 'node.purchased',
}
