import { WalletReadyState } from '@solana/wallet-adapter-base'
import { PhantomWalletName } from '@solana/wallet-adapter-phantom'
import { useWallet, type Wallet } from '@solana/wallet-adapter-react'
import { m } from 'motion/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Modal } from '@/components/modal.tsx'
import { toast } from '@/lib/toast.ts'
import { isMobileWalletAdapter, isPhantomWallet, isPhone, phantomBrowseUrl } from '@/lib/wallet/phantom.ts'
import { useWalletModal } from '@/lib/wallet/wallet-modal.tsx'
import { chooseWallet, takeWalletChoice } from '../hooks/wallet-choice.ts'
import './wallet-modal.css'

/** Seconds the 'More options' list takes to expand or collapse (docs/product.md#shared-elements: 250 ms). */
const EXPAND_S = 0.25

/** A wallet extension (or a wallet app's browser) put it in the page: the Mobile Wallet Adapter is not one. */
const isDetected = ({ adapter, readyState }: Wallet) =>
  readyState === WalletReadyState.Installed && !isMobileWalletAdapter(adapter.name)

/** Phantom first, then the Mobile Wallet Adapter (Phantom's app on Android), then the rest as listed. */
const rank = ({ adapter }: Wallet) =>
  adapter.name === PhantomWalletName ? 0 : isMobileWalletAdapter(adapter.name) ? 1 : 2

interface WalletModalProps {
  /** The invite code the app was opened with: kept in the link that opens the page in Phantom. */
  inviteCode: string
  /** The user login signs in a chosen wallet that has Sign-In-With-Solana (false on the operator console). */
  signIn: boolean
}

/**
 * Our own wallet picker (docs/product.md#shared-elements): detected wallets first, the rest behind 'More options'. On a
 * phone Phantom is in the first list whether or not it is in the page — without it, choosing it opens this page in
 * Phantom's in-app browser — and on Android the Mobile Wallet Adapter beside it. Only Phantom connects
 * (lib/wallet/phantom.ts).
 */
export function WalletModal({ inviteCode, signIn }: WalletModalProps) {
  const { t } = useTranslation(['ui', 'msg'])
  const { visible, setVisible } = useWalletModal()
  const { wallets, wallet: selected, select, connect } = useWallet()
  const [expanded, setExpanded] = useState(false)
  const phone = isPhone()
  const first = wallets
    .filter((w) => w.readyState === WalletReadyState.Installed || (phone && isPhantomWallet(w.adapter.name)))
    .sort((a, b) => rank(a) - rank(b))
  const others = wallets.filter((w) => !first.includes(w))

  const close = () => setVisible(false)

  function choose({ adapter, readyState }: Wallet) {
    close()
    const installed = readyState === WalletReadyState.Installed
    if (!isPhantomWallet(adapter.name)) toast.error(t('msg:wallet.switchWallet'))
    // A phone browser without Phantom in the page: open this page in Phantom's in-app browser.
    else if (adapter.name === PhantomWalletName && !installed && (phone || readyState === WalletReadyState.Loadable))
      window.location.href = phantomBrowseUrl(window.location.href, window.location.origin, inviteCode)
    else if (!installed && readyState !== WalletReadyState.Loadable) toast.error(t('msg:wallet.phantomNotInstalled'))
    else {
      // Selecting makes WalletProvider connect, or (Sign-In-With-Solana) the login sign in; a wallet already selected
      // (e.g. after a refused connect) is asked again.
      const withSignIn = signIn && 'signIn' in adapter
      chooseWallet({ name: adapter.name, signIn: withSignIn })
      if (selected?.adapter.name !== adapter.name) select(adapter.name)
      else if (!withSignIn) {
        takeWalletChoice()
        connect().catch(console.error)
      }
    }
  }

  return (
    <Modal
      open={visible}
      onClose={close}
      testId="wallet-modal"
      title={wallets.some(isDetected) ? t('wallet.detected') : t('wallet.missing')}
    >
      <WalletList wallets={first} onChoose={choose} />
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
            {isDetected(wallet) && <small>{t('wallet.installed')}</small>}
          </button>
        </li>
      ))}
    </ul>
  )
}
