import type { AssetBalance } from '@solpledge/contract/client'
import type { UseQueryResult } from '@tanstack/react-query'
import i18next from 'i18next'
import { useTranslation } from 'react-i18next'
import { TokenIcon } from '@/components/token-icon.tsx'
import type { TokenBalances } from '@/lib/chain-balances.ts'
import { useClientConfig } from '@/lib/client-config.ts'
import { toast } from '@/lib/toast.ts'
import { useFormat } from '@/lib/use-format.ts'
import { SOL_DECIMALS, useSolBalance } from '../api/get-sol-balance.ts'
import { useFaucet } from '../api/request-faucet.ts'

interface WalletBalancesProps {
  assets: readonly AssetBalance[]
  tokens: UseQueryResult<TokenBalances>
}

/** What the connected wallet holds on chain: SOL for fees and each asset's token, which top-ups are paid from. */
export function WalletBalances({ assets, tokens }: WalletBalancesProps) {
  const { t } = useTranslation()
  const format = useFormat()
  const { demoWallet } = useClientConfig()
  const sol = useSolBalance()
  const faucet = useFaucet()
  const onChain = assets.filter((asset) => asset.mint !== null)

  /** A user action: what cannot be read now is said (docs/product.md#user-messages). */
  const refresh = async () => {
    const [solResult, tokenResult] = await Promise.all([sol.refetch(), tokens.refetch()])
    if (solResult.isError) toast.error(i18next.t('msg:wallet.failedBalance'))
    else if (tokenResult.isError) toast.error(i18next.t('msg:wallet.failedTokenBalance'))
  }

  const tokenAmount = (asset: AssetBalance) => {
    if (tokens.isError && !tokens.data) return t('assets.wallet.unavailable')
    const amount = asset.mint ? tokens.data?.[asset.mint] : undefined
    if (amount === undefined) return '…'
    return format.amount(amount ?? 0n, asset)
  }

  return (
    <section className="card wallet-card" data-testid="wallet-balances" aria-labelledby="wallet-balances-title">
      <header className="section-head">
        <h2 id="wallet-balances-title">{t('assets.wallet.title')}</h2>
        <button
          type="button"
          className="icon-button"
          data-testid="wallet-refresh"
          aria-label={t('assets.wallet.refresh')}
          disabled={sol.isFetching || tokens.isFetching}
          onClick={refresh}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" />
          </svg>
        </button>
      </header>
      <p className="muted-note">{t('assets.wallet.hint')}</p>
      <ul className="wallet-rows">
        <li data-testid="wallet-balance" data-coin="SOL">
          <span className="asset-name">
            <TokenIcon symbol="SOL" />
            SOL
          </span>
          <span className="wallet-amount">
            {sol.data !== undefined
              ? format.amount(sol.data, { symbol: 'SOL', decimals: SOL_DECIMALS })
              : sol.isError
                ? t('assets.wallet.unavailable')
                : '…'}
          </span>
        </li>
        {onChain.map((asset) => (
          <li key={asset.coin} data-testid="wallet-balance" data-coin={asset.coin}>
            <span className="asset-name">
              <TokenIcon symbol={asset.symbol} />
              {asset.symbol}
            </span>
            <span className="wallet-amount">{tokenAmount(asset)}</span>
          </li>
        ))}
      </ul>
      {demoWallet && (
        <button
          type="button"
          className="faucet-button"
          data-testid="faucet-button"
          disabled={faucet.isPending}
          onClick={() => faucet.mutate()}
        >
          {faucet.isPending ? t('assets.wallet.faucetPending') : t('assets.wallet.faucet')}
        </button>
      )}
    </section>
  )
}
