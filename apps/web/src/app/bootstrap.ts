/**
 * Start-up, while the shell shows its loading overlay: the runtime config (on the local chain also the demo wallet,
 * injected before any wallet code runs) and the wallet layer chunk, in parallel. The API client and the contract's
 * route table come with the config loader, so neither they nor @solana/* weigh on the first chunk.
 */
async function loadConfig() {
  const { getConfig } = await import('../lib/config.ts')
  const config = await getConfig()
  if (config.demoWallet) {
    const { installDemoWallet } = await import('@solpledge/demo-wallet')
    installDemoWallet({ rpcUrl: config.rpcUrl })
  }
  return config
}

export async function loadApp() {
  const [config, { WalletLayer }] = await Promise.all([loadConfig(), import('./wallet-layer.tsx')])
  return { config, WalletLayer }
}

export type LoadedApp = Awaited<ReturnType<typeof loadApp>>
