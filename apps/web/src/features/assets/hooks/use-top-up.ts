import { useConnection, useWallet } from '@solana/wallet-adapter-react'
import type { AssetBalance } from '@solpledge/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import i18next from 'i18next'
import { useState } from 'react'
import { toast } from '../../../lib/toast.ts'
import { assetsKeys } from '../api/keys.ts'
import { type Notice, showNotice } from '../utils/notice.ts'
import { runTopUp, TopUpError, type TopUpStep } from '../utils/run-top-up.ts'

interface TopUpRequest {
  asset: AssetBalance
  /** Base units. */
  amount: bigint
}

/**
 * Tops up an asset from the connected wallet (see runTopUp). Reports every outcome as a toast, refreshes the
 * balances afterwards and calls `onDone` when the dialog can close: the top-up was credited, or it was paid and the
 * server will credit it shortly.
 */
export function useTopUp(onDone: () => void) {
  const { connection } = useConnection()
  const { publicKey, sendTransaction } = useWallet()
  const queryClient = useQueryClient()
  const [step, setStep] = useState<TopUpStep | null>(null)

  const mutation = useMutation({
    mutationFn: ({ asset, amount }: TopUpRequest) => {
      if (!publicKey) throw new TopUpError({ key: 'wallet.sendFailed' })
      const onInfo = (notice: Notice) => showNotice(notice, 'info')
      return runTopUp({ connection, owner: publicKey, sendTransaction, onStep: setStep, onInfo }, asset.coin, amount)
    },
    onSuccess: () => {
      toast.success(i18next.t('msg:assets.rechargeSuccess'))
      onDone()
    },
    onError: (error) => {
      console.error(error)
      if (error instanceof TopUpError) {
        showNotice(error.notice, 'error')
        if (error.sent) onDone()
      } else toast.error(i18next.t('msg:wallet.tokenTransferFailed'))
    },
    onSettled: () => {
      setStep(null)
      return queryClient.invalidateQueries({ queryKey: assetsKeys.all })
    },
  })

  return { topUp: mutation.mutate, pending: mutation.isPending, step }
}
