// @vitest-environment happy-dom
import { api, type ClientConfig, Code, type LiabilityProof, type LiabilityRoot } from '@solpledge/contract/client'
import { memoText } from '@solpledge/proof'
import { buildTree, randomAddress } from '@solpledge/proof/test-helpers'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { ClientConfigContext } from '../../../lib/client-config.ts'
import { clearSession } from '../../../lib/session.ts'
import { fakeApi, renderSignedIn } from '../../../test/harness.tsx'
import { LiabilitiesProof } from './liabilities-proof.tsx'

const RPC_URL = 'http://127.0.0.1:8899'
const config: ClientConfig = {
  cluster: 'localnet',
  testnet: true,
  rpcUrl: RPC_URL,
  wsUrl: 'ws://127.0.0.1:8900',
  demoWallet: false,
  productSymbol: 'PLG',
}
const SIGNATURE = '5'.repeat(87)
const TREASURY = randomAddress()
const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'

/** Three users; the signed-in one is the second, with 12.5 USDT and 2 PLG. */
const users = [
  { address: randomAddress(), amounts: [1_000_000n, 0n] },
  { address: randomAddress(), amounts: [12_500_000n, 2_000_000_000n] },
  { address: randomAddress(), amounts: [0n, 1_000_000_000n] },
]
const me = users[1]?.address as string
const tree = buildTree(users, { snapshotId: '3' })
const proof: LiabilityProof = { ...tree.proofAt(1), signature: SIGNATURE }
const snapshot: LiabilityRoot = {
  snapshot_id: '3',
  taken_at: '2026-11-25T00:00:00.000Z',
  slot: 1234,
  assets: proof.assets,
  root: tree.root,
  signature: SIGNATURE,
  reserves: [
    { coin: 'USDT', treasury: '20000000', hot_wallet: '0', holdings: '20000000' },
    { coin: 'PLG', treasury: '1000000000', hot_wallet: '0', holdings: '1000000000' },
  ],
}

/** The chain's RPC endpoint answering getTransaction (jsonParsed) with a memo transaction signed by the treasury. */
function fakeChain(memo: string) {
  const apiFetch = globalThis.fetch
  const asked: { method: string; params: unknown[] }[] = []
  vi.stubGlobal('fetch', async (input: string, init: RequestInit) => {
    if (input !== RPC_URL) return apiFetch(input, init)
    asked.push(JSON.parse(String(init.body)))
    const result = {
      slot: 1240,
      blockTime: 1_764_028_800,
      meta: { err: null },
      transaction: {
        signatures: [SIGNATURE],
        message: {
          accountKeys: [
            { pubkey: TREASURY, signer: true, writable: true, source: 'transaction' },
            { pubkey: MEMO_PROGRAM, signer: false, writable: false, source: 'transaction' },
          ],
          instructions: [{ program: 'spl-memo', programId: MEMO_PROGRAM, parsed: memo, stackHeight: null }],
        },
      },
    }
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result }))
  })
  return asked
}

function fakeRoutes(proofAnswer: () => { data: unknown } | { code: number; msg: string }, root = snapshot) {
  return fakeApi({
    [api.liabilitiesRoot.path]: () => ({ data: root }),
    [api.liabilitiesProof.path]: proofAnswer,
  })
}

/** The verdict once it reached `state` (checking, included, failed or absent). */
async function verdictIn(state: string) {
  await waitFor(() => expect(screen.getByTestId('inclusion').dataset.state).toBe(state))
  return screen.getByTestId('inclusion')
}

const show = (address = me) =>
  renderSignedIn(
    <ClientConfigContext value={config}>
      <LiabilitiesProof />
    </ClientConfigContext>,
    address,
  )

describe('the proof of liabilities on /assets', () => {
  it('says calmly that there is no snapshot yet, and asks for no proof', async () => {
    const calls = fakeRoutes(() => ({ data: proof }), null as unknown as LiabilityRoot)
    await show()
    expect((await screen.findByTestId('liabilities-none')).textContent).toBe(
      'No snapshot yet: the first one is taken after the next daily settlement.',
    )
    expect(calls.map((call) => call.path)).toEqual([api.liabilitiesRoot.path])
  })

  it("verifies the user's proof against the memo read from the chain and shows owed against reserves", async () => {
    const calls = fakeRoutes(() => ({ data: proof }))
    const asked = fakeChain(memoText('3', tree.root))
    await show()
    const verdict = await verdictIn('included')
    expect(verdict.textContent).toContain('Your balance is included in snapshot #3')
    expect(verdict.textContent).toContain('Counted for you: 12.5 USDT · 2 PLG')
    expect(calls.find((call) => call.path === api.liabilitiesProof.path)?.body).toEqual({ snapshot_id: '3' })
    expect(asked).toEqual([
      expect.objectContaining({ method: 'getTransaction', params: [SIGNATURE, expect.anything()] }),
    ])

    const [usdt, plg] = screen.getAllByTestId('liabilities-row')
    if (!usdt || !plg) throw new Error('two rows expected')
    expect(within(usdt).getByTestId('liabilities-owed').textContent).toBe('13.5')
    expect(within(usdt).getByTestId('liabilities-reserves').textContent).toBe('20')
    expect(usdt.dataset.covered).toBe('true')
    // 3 PLG owed, 1 PLG held at the snapshot's slot.
    expect(within(plg).getByTestId('liabilities-owed').textContent).toBe('3')
    expect(plg.dataset.covered).toBe('false')
    expect(screen.getByTestId('liabilities-snapshot').textContent).toContain('Snapshot #3')
    const link = within(screen.getByTestId('liabilities-published')).getByRole('link')
    expect(link.getAttribute('href')).toBe(
      `https://explorer.solana.com/tx/${SIGNATURE}?cluster=custom&customUrl=${encodeURIComponent(RPC_URL)}`,
    )
  })

  it('offers the proof file the standalone verifier reads: the proof plus the address', async () => {
    fakeRoutes(() => ({ data: proof }))
    fakeChain(memoText('3', tree.root))
    const files: Blob[] = []
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      files.push(blob as Blob)
      return 'blob:proof'
    })
    await show()
    await userEvent.setup().click(await screen.findByTestId('proof-download'))
    await waitFor(() => expect(files).toHaveLength(1))
    expect(JSON.parse(await (files[0] as Blob).text())).toEqual({ ...proof, address: me })
  })

  it('refuses a proof whose amount was changed: it no longer leads to the root', async () => {
    fakeRoutes(() => ({ data: { ...proof, amounts: ['13500000', '2000000000'] } }))
    fakeChain(memoText('3', tree.root))
    await show()
    const verdict = await verdictIn('failed')
    expect(verdict.dataset.reason).toBe('rootMismatch')
    expect(verdict.textContent).toContain('Your proof does not lead to the published root')
  })

  it('refuses a root that the transaction on chain does not publish', async () => {
    fakeRoutes(() => ({ data: proof }))
    fakeChain(memoText('3', { ...tree.root, sums: ['1', '3000000000'] }))
    await show()
    const verdict = await verdictIn('failed')
    expect(verdict.dataset.reason).toBe('memoMismatch')
    expect(verdict.textContent).toContain('The transaction on chain does not publish this root.')
  })

  it('refuses when the snapshot shown is not the root the proof leads to and the chain published', async () => {
    fakeRoutes(() => ({ data: proof }), { ...snapshot, root: { ...tree.root, sums: ['1', '3000000000'] } })
    fakeChain(memoText('3', tree.root))
    await show()
    const verdict = await verdictIn('failed')
    expect(verdict.dataset.reason).toBe('memoMismatch')
  })

  it("shows the server's refusal for a user who is not in the snapshot", async () => {
    fakeRoutes(() => ({ code: Code.FAIL, msg: 'You had nothing on the platform at snapshot #3.' }))
    await show()
    const verdict = await verdictIn('absent')
    expect(verdict.textContent).toBe('You had nothing on the platform at snapshot #3.')
  })

  it('asks a signed-out visitor to sign in, and asks for no proof', async () => {
    const calls = fakeRoutes(() => ({ data: proof }))
    await show()
    act(() => clearSession())
    expect(await screen.findByText('Sign in to check that your balance is included.')).toBeTruthy()
    await screen.findByTestId('liabilities-snapshot')
    expect(calls.filter((call) => call.path === api.liabilitiesProof.path)).toEqual([])
  })
})
