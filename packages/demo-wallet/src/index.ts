export { decodeBase58, encodeBase58 } from './base58.ts'
export { type InstallDemoWalletOptions, installDemoWallet } from './install.ts'
export {
  createDemoWalletStorageValue,
  DEMO_WALLET_STORAGE_KEY,
  DEMO_WALLET_TRUSTED_KEY,
  type DemoWalletStorageValue,
  MemoryStorage,
  type StorageLike,
} from './storage.ts'
export {
  type AnyTransaction,
  DemoWallet,
  type DemoWalletConnection,
  DemoWalletError,
  type DemoWalletEvent,
  type DemoWalletEvents,
  type DemoWalletListener,
  type DemoWalletOptions,
  type DemoWalletRequest,
} from './wallet.ts'
export { mountDemoWalletWidget } from './widget.ts'
