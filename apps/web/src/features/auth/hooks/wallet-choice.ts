import { createStore } from '@/lib/store.ts'

/**
 * The wallet the user just chose in the picker, until the wallet layer has acted on it. One the login signs in with
 * Sign-In-With-Solana (`signIn`) is not connected by the wallet adapter (a connect prompt, then a signature prompt):
 * the login's signIn connects it in one prompt. Any other is connected as the user asked. A wallet selected at start-up
 * (remembered, or the one Phantom) is not a choice: it reconnects quietly, without a prompt.
 */
export interface WalletChoice {
  name: string
  signIn: boolean
}

const choice = createStore<WalletChoice | null>(null)

export const chooseWallet = (next: WalletChoice) => choice.set(next)
export const useWalletChoice = choice.use
/** The pending choice of the wallet named `name`, if any. */
export const chosenWallet = (name: string) => (choice.get()?.name === name ? choice.get() : null)
export const takeWalletChoice = () => choice.set(null)
