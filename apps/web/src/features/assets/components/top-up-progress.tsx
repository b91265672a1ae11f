import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { SignatureLink } from '@/components/signature-link.tsx'
import { useLiveTopic } from '@/lib/live/use-live.ts'
import { clearPendingPayment, usePendingPayments } from '@/lib/payment/pending-payment.ts'
import { useChainConnection, useWalletState } from '@/lib/wallet/wallet-state.ts'

type Step = 'sent' | 'seen' | 'credited'

/**
 * The wallet's top-ups on their way (docs/architecture.md "Live updates"): sent by the wallet, "seen" once the chain
 * has the transaction at confirmed commitment (signatureSubscribe through the RPC's WebSocket), "credited" when the
 * ledger has it (the live channel's intent event, whoever reported the payment: this tab, another one, or the
 * server's watcher). Nothing shows when no top-up is on its way.
 */
export function TopUpProgress() {
  const { t } = useTranslation()
  const connection = useChainConnection()
  const { publicKey } = useWalletState()
  const owner = publicKey?.toBase58() ?? null
  const pending = usePendingPayments().filter(
    (payment) => payment.purpose === 'recharge' && payment.signature !== null && payment.address === owner,
  )
  const [steps, setSteps] = useState<ReadonlyMap<string, { step: Step; signature: string }>>(new Map())
  const mark = (id: string, signature: string, step: Step) =>
    setSteps((current) => {
      if (current.get(id)?.step === 'credited') return current
      return new Map(current).set(id, { step, signature })
    })

  useLiveTopic(
    'user',
    {
      onEvent: (event) => {
        if (event.kind !== 'intent' || event.purpose !== 'recharge' || event.status !== 'fulfilled') return
        const signature = event.signature ?? ''
        mark(event.id, signature, 'credited')
        clearPendingPayment(event.id)
      },
      // A credit missed while disconnected is reported with the stored payment (lib/payment/use-resume-payments.ts).
      onSnapshot: async () => {},
    },
    owner !== null,
  )

  const signatures = pending.map((payment) => `${payment.id}:${payment.signature}`).join()
  // biome-ignore lint/correctness/useExhaustiveDependencies: the payments are named by `signatures`
  useEffect(() => {
    if (!connection) return
    const ids = pending.map((payment) => {
      const signature = payment.signature as string
      return connection.onSignature(
        signature,
        (result) => {
          if (!result.err) mark(payment.id, signature, 'seen')
        },
        'confirmed',
      )
    })
    return () => {
      for (const id of ids) void connection.removeSignatureListener(id).catch(() => {})
    }
  }, [connection, signatures])

  const rows = new Map<string, { step: Step; signature: string }>()
  for (const payment of pending)
    rows.set(payment.id, steps.get(payment.id) ?? { step: 'sent', signature: payment.signature as string })
  for (const [id, row] of steps) if (row.step === 'credited') rows.set(id, row)
  if (rows.size === 0) return null

  return (
    <section className="card top-up-progress" aria-labelledby="top-up-progress-title" data-testid="top-up-progress">
      <h2 id="top-up-progress-title" className="section-title">
        {t('assets.topUps.title')}
      </h2>
      <ul className="money-log-list">
        {[...rows].map(([id, row]) => (
          <li key={id} className="money-log-row" data-testid="top-up-row" data-step={row.step}>
            <span className={`badge ${row.step === 'credited' ? 'badge-ok' : 'badge-wait'}`}>
              {t(`assets.topUps.${row.step}`)}
            </span>
            <SignatureLink signature={row.signature} testId="top-up-signature" />
          </li>
        ))}
      </ul>
    </section>
  )
}
