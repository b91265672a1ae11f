import i18next from 'i18next'
import { useState } from 'react'
import { type Notice, noticeText, showNotice } from '../notice.ts'
import { showReceipt } from '../receipt.ts'
import { toast } from '../toast.ts'
import { useMoneyAction } from '../use-money-action.ts'
import { useChainConnection, useWalletState } from '../wallet/wallet-state.ts'
import { PaymentError } from './payment-error.ts'
import { paymentOutcome, paymentReceipt } from './payment-outcome.ts'
import type { PaymentRequest, PaymentStep } from './run-payment.ts'

interface UsePaymentOptions {
  /**
   * The payment is over and its form can close: fulfilled, paid and the server will fulfil it shortly, or paid but
   * what it paid for was refused (e.g. the node level sold out meanwhile; the money is then in the asset balance):
   * `refusal` is then the reason, to keep showing beyond the toast.
   */
  onDone?: (refusal: string | null) => void
}

/**
 * Pays a payment intent from the connected wallet (see runPayment): top-up, stake or node purchase. Reports every
 * outcome as a toast (and a fulfilled one as its receipt) and refreshes everything shown afterwards (balances, stakes, nodes). One payment at a time; a
 * retry reuses the action's Idempotency-Key only while the intent was asked for without an answer: once there is an
 * intent, the pending payment (resumed after a reload) is what remembers it.
 */
export function usePayment({ onDone }: UsePaymentOptions = {}) {
  const connection = useChainConnection()
  const { publicKey, sendTransaction } = useWalletState()
  const [step, setStep] = useState<PaymentStep | null>(null)

  const mutation = useMoneyAction({
    mutationFn: async (request: PaymentRequest, key) => {
      if (!publicKey || !connection) throw new PaymentError({ key: 'wallet.sendFailed' })
      const onInfo = (notice: Notice) => showNotice(notice, 'info')
      // The payment code and SPL Token come with the first payment, not with the screen.
      const { runPayment } = await import('./run-payment.ts')
      return runPayment({ connection, owner: publicKey, sendTransaction, onStep: setStep, onInfo }, request, key)
    },
    unanswered: (error) => error instanceof PaymentError && error.unanswered,
    onSuccess: (intent) => {
      const outcome = paymentOutcome(intent)
      showNotice(outcome.notice, outcome.ok ? 'success' : 'error')
      onDone?.(outcome.ok ? null : noticeText(outcome.notice))
      showReceipt(paymentReceipt(intent))
    },
    onError: (error) => {
      console.error(error)
      if (error instanceof PaymentError) {
        showNotice(error.notice, 'error')
        if (error.sent) onDone?.(error.refused ? noticeText(error.notice) : null)
      } else toast.error(i18next.t('msg:wallet.tokenTransferFailed'))
    },
    onSettled: () => setStep(null),
    invalidates: 'payment',
  })

  return { pay: mutation.mutate, pending: mutation.isPending, step }
}
