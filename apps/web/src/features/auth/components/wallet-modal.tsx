import { WalletReadyState } from '@solana/wallet-adapter-base'
import { PhantomWalletName } from '@solana/wallet-adapter-phantom'
import { useWallet, type Wallet } from '@solana/wallet-adapter-react'
import { m } from 'motion/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Modal } from '@/components/modal.tsx'
import { toast } from '@/lib/toast.ts'
import { phantomBrowseUrl } from '@/lib/wallet/phantom.ts'
import { useWalletModal } from '@/lib/wallet/wallet-modal.tsx'
import './wallet-modal.css'

/** Seconds the 'More options' list takes to expand or collapse (docs/product.md#shared-elements: 250 ms). */
const EXPAND_S = 0.25

/**
 * Our own wallet picker (docs/product.md#shared-elements): detected wallets first, the rest behind 'More options'. Only
 * Phantom connects.
 */
export function WalletModal() {
  const { t } = useTranslation(['ui', 'msg'])
  const { visible, setVisible } = useWalletModal()
  const { wallets, wallet: selected, select, connect } = useWallet()
  const [expanded, setExpanded] = useState(false)
  const detected = wallets.filter((w) => w.readyState === WalletReadyState.Installed)
  const others = wallets.filter((w) => w.readyState !== WalletReadyState.Installed)

  const close = () => setVisible(false)

  function choose({ adapter, readyState }: Wallet) {
    close()
    if (adapter.name !== PhantomWalletName) toast.error(t('msg:wallet.switchWallet'))
    // A phone browser without the extension: open this page in Phantom's in-app browser.
    else if (readyState === WalletReadyState.Loadable)
      window.location.href = phantomBrowseUrl(window.location.href, window.location.origin)
    else if (readyState !== WalletReadyState.Installed) toast.error(t('msg:wallet.phantomNotInstalled'))
    // Selecting makes WalletProvider connect; a wallet already selected (e.g. after a refused connect) is asked again.
    else if (selected?.adapter.name === adapter.name) connect().catch(console.error)
    else select(adapter.name)
  }

  return (
    <Modal
      open={visible}
      onClose={close}
      testId="wallet-modal"
      title={detected.length > 0 ? t('wallet.detected') : t('wallet.missing')}
    >
      <WalletList wallets={detected} onChoose={choose} />
      {others.length > 0 && (
        <>
          <button
            type="button"
            className="wallet-more"
            aria-expanded={expanded}
            onClick={() => setExpanded((value) => !value)}
          >
            {expanded ? t('wallet.lessOptions') : t('wallet.moreOptions')}
            <svg viewBox="0 0 24 24" aria-hidden="true" className={expanded ? 'wallet-more-open' : undefined}>
              <path d="M6 9l6 6 6-6" />
            </svg>
          </button>
          <m.div
            className="wallet-collapse"
            initial={false}
            animate={{ height: expanded ? 'auto' : 0, opacity: expanded ? 1 : 0 }}
            transition={{ duration: EXPAND_S }}
            aria-hidden={!expanded}
            inert={!expanded}
          >
            <WalletList wallets={others} onChoose={choose} />
          </m.div>
        </>
      )}
    </Modal>
  )
}

function WalletList({ wallets, onChoose }: { wallets: Wallet[]; onChoose: (wallet: Wallet) => void }) {
  const { t } = useTranslation()
  return (
    <ul className="wallet-list">
      {wallets.map((wallet) => (
        <li key={wallet.adapter.name}>
          <button type="button" className="wallet-option" onClick={() => onChoose(wallet)}>
            <img src={wallet.adapter.icon} alt="" width={28} height={28} />
            <span>{wallet.adapter.name}</span>
            {wallet.readyState === WalletReadyState.Installed && <small>{t('wallet.installed')}</small>}
          </button>
        </li>
      ))}
    </ul>
  )
}
