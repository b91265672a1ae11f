import { nodeReturns } from '@solpledge/contract/client'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useReturnsText } from '@/components/returns.tsx'
import { ReviewSheet } from '@/components/review-sheet.tsx'
import { Tabs } from '@/components/tabs.tsx'
import { useTokenBalances } from '@/lib/chain-balances.ts'
import { USDT_DECIMALS } from '@/lib/format.ts'
import { usePayment } from '@/lib/payment/use-payment.ts'
import { useFormat } from '@/lib/use-format.ts'
import { findAsset, useUserWallet } from '@/lib/user-wallet.ts'
import { useBuyNode } from '../api/buy-node.ts'
import type { NodeLevel, NodeLevels } from '../api/get-node-levels.ts'
import { defaultPayWith, type PayWith } from '../utils/pay-with.ts'
import { levelName } from './level-name.ts'

interface BuyNodeDialogProps {
  open: boolean
  level: NodeLevel | null
  /** The node pool the level shares: what the review's expected dividends are computed with. */
  pool: NodeLevels['pool'] | null
  onClose: () => void
  /** A chain payment arrived but the node could not be made (e.g. sold out meanwhile): the reason to keep showing. */
  onRefused: (text: string) => void
}

/**
 * Reviews a purchase (the review sheet): the price, what the node brings (power bonus, dividend weight), the user's
 * available USDT and the wallet's USDT; paid from the asset balance or on chain from the wallet (a payment intent of
 * purpose node).
 */
export function BuyNodeDialog({ open, level, pool, onClose, onRefused }: BuyNodeDialogProps) {
  const { t } = useTranslation()
  // The user's own choice, for the level it was made on; until then the way that can pay (defaultPayWith).
  const [chosen, setChosen] = useState<{ level: string; payWith: PayWith } | null>(null)
  const format = useFormat()
  const returnsText = useReturnsText()
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
  if (!level) return null

  const price = BigInt(level.price_usdt)
  const returns = pool ? nodeReturns(level, pool) : null
  const available = usdt ? BigInt(usdt.available) : assets ? 0n : undefined
  const wallet = walletUsdt === undefined ? undefined : (walletUsdt ?? 0n)
  const canPay = {
    balance: available === undefined ? undefined : available >= price,
    chain: wallet === undefined ? undefined : wallet >= price,
  }
  const payWith = chosen?.level === level.code ? chosen.payWith : defaultPayWith(canPay)
  const blocked =
    canPay[payWith] === false
      ? t(payWith === 'balance' ? 'node.confirm.balanceShort' : 'node.confirm.walletShort', {
          price: usdtText(price),
          amount: usdtText((payWith === 'balance' ? available : wallet) ?? 0n),
        })
      : undefined

  return (
    <ReviewSheet
      open={open}
      title={t('node.confirm.title', { level: levelName(t, level.code) })}
      rows={[
        {
          id: 'price',
          label: t('node.confirm.price'),
          value: usdtText(level.price_usdt),
          testId: 'node-confirm-price',
        },
        { id: 'power', label: t('node.powerBonus'), value: format.percent(level.power_bonus_bps) },
        { id: 'weight', label: t('node.dividendWeight'), value: format.count(level.dividend_weight) },
        ...(pool && returns
          ? [
              {
                id: 'daily',
                label: t('node.levels.daily'),
                value: returnsText.daily(returns, { symbol: pool.coin, decimals: pool.decimals }),
                testId: 'node-confirm-daily',
              },
              { id: 'apr', label: t('returns.apr'), value: returnsText.apr(returns) },
            ]
          : []),
        {
          id: 'available',
          label: t('node.confirm.available'),
          value: usdt ? usdtText(usdt.available) : assets ? usdtText(0n) : '—',
          testId: 'node-confirm-available',
        },
        {
          id: 'wallet',
          label: t('node.confirm.wallet'),
          value: walletUsdt === undefined ? '—' : usdtText(walletUsdt ?? 0n),
          testId: 'node-confirm-wallet',
        },
      ]}
      note={t('node.confirm.note')}
      pending={pending}
      blocked={blocked}
      pendingLabel={chain.step ? t(`payment.steps.${chain.step}`) : t('node.confirm.submitting')}
      onConfirm={() =>
        payWith === 'balance' ? buy.mutate(level.code) : chain.pay({ intent: { purpose: 'node', level: level.code } })
      }
      onCancel={onClose}
    >
      <Tabs<PayWith>
        label={t('pledge.form.payWith')}
        testId="node-pay"
        value={payWith}
        onChange={(value) => setChosen({ level: level.code, payWith: value })}
        options={[
          { value: 'balance', label: t('node.confirm.submit') },
          { value: 'chain', label: t('node.confirm.submitChain') },
        ]}
      />
    </ReviewSheet>
  )
}
