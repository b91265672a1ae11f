import type { Address, EncodedAccount } from '@solana/kit'
import {
  type AccountView,
  accountView,
  encodeAccount,
  encodeMaybeAccount,
  matchesFilters,
  parseFilters,
} from './accounts.ts'
import { type Chain, SLOTS_PER_EPOCH } from './chain.ts'
import { fromBase58, fromBase64, parseMessage } from './codec.ts'
import { invalidParams, METHOD_NOT_FOUND, RpcError } from './errors.ts'
import type { Faucet } from './faucet.ts'
import { formatTransaction, parsedInnerInstructions, signatureInfo, signatureStatus } from './format.ts'
import {
  type Config,
  checkContext,
  config,
  optionalEnum,
  positional,
  requireAddress,
  requireInteger,
  requireSignature,
  requireString,
} from './params.ts'
import { decodeMint, decodeTokenAccount, TOKEN_PROGRAMS, uiTokenAmount } from './token.ts'

/** Version reported by getVersion and in every context (a current Agave release line). */
export const SOLANA_CORE_VERSION = '2.2.20'
export const FEATURE_SET = 3294202862

const PACKET_DATA_SIZE = 1232
const MAX_BASE58_TX_SIZE = 1683
const MAX_BASE64_TX_SIZE = 1644

export interface RpcContext {
  chain: Chain
  faucet: Faucet
}

type Handler = (params: unknown[], ctx: RpcContext) => unknown

function withContext(chain: Chain, value: unknown) {
  return { context: { apiVersion: SOLANA_CORE_VERSION, slot: chain.slot }, value }
}

/** Parses the config at `index` and checks commitment/minContextSlot. */
function cfgAt(params: unknown[], index: number, chain: Chain): Config {
  const cfg = config(params[index])
  checkContext(cfg, chain.slot)
  return cfg
}

function rejectProcessed(cfg: Config): void {
  if (cfg.commitment === 'processed') {
    throw invalidParams('Method does not support commitment below `confirmed`')
  }
}

function decodeWireTransaction(data: unknown, encoding: 'base58' | 'base64'): Uint8Array {
  const text = requireString(data, 'an encoded transaction')
  const max = encoding === 'base58' ? MAX_BASE58_TX_SIZE : MAX_BASE64_TX_SIZE
  if (text.length > max) {
    throw invalidParams(
      `${encoding} encoded solana_transaction::versioned::VersionedTransaction too large: ${text.length} bytes (max: encoded/raw ${max}/${PACKET_DATA_SIZE})`,
    )
  }
  let bytes: Uint8Array
  if (encoding === 'base58') {
    try {
      bytes = fromBase58(text)
    } catch (error) {
      throw invalidParams(`invalid base58 encoding: ${(error as Error).message}`)
    }
  } else {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw invalidParams('invalid base64 encoding: Invalid byte')
    bytes = fromBase64(text)
  }
  if (bytes.length > PACKET_DATA_SIZE) {
    throw invalidParams(
      `decoded solana_transaction::versioned::VersionedTransaction too large: ${bytes.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`,
    )
  }
  return bytes
}

function tokenAccountFilter(chain: Chain, filter: unknown): { mint?: string; programId?: string } {
  const f = config(filter)
  if (typeof f.mint === 'string') {
    const mint = requireAddress(f.mint)
    const account = chain.getAccount(mint)
    if (!account.exists || !decodeMint(account.programAddress, account.data)) {
      throw invalidParams('Invalid param: could not find mint')
    }
    return { mint, programId: account.programAddress }
  }
  if (typeof f.programId === 'string') {
    const programId = requireAddress(f.programId)
    if (!TOKEN_PROGRAMS.has(programId)) throw invalidParams('Invalid param: unrecognized Token program id')
    return { programId }
  }
  throw invalidParams('Invalid params: expected a filter with `mint` or `programId`')
}

function tokenAccounts(chain: Chain, owner: string, filter: { mint?: string; programId?: string }): EncodedAccount[] {
  const programs = filter.programId ? [filter.programId] : [...TOKEN_PROGRAMS]
  return programs.flatMap((program) =>
    chain.svm.getProgramAccounts(program as Address).filter((account) => {
      const token = decodeTokenAccount(account.programAddress, account.data)
      return token !== null && token.owner === owner && (filter.mint === undefined || token.mint === filter.mint)
    }),
  )
}

function keyed(chain: Chain, accounts: EncodedAccount[], view: AccountView) {
  return accounts.map((account) => ({ account: encodeAccount(chain, account, view), pubkey: account.address }))
}

function requireTokenAccount(chain: Chain, address: string) {
  const account = chain.getAccount(address)
  if (!account.exists) throw invalidParams('Invalid param: could not find account')
  const token = decodeTokenAccount(account.programAddress, account.data)
  if (!token) throw invalidParams('Invalid param: not a Token account')
  return token
}

function faucetRequest(value: unknown) {
  const request = config(value)
  const tokens: Record<string, bigint> = {}
  for (const [symbol, amount] of Object.entries(config(request.tokens))) {
    tokens[symbol] = requireInteger(amount, `a base-unit amount for ${symbol}`)
  }
  return {
    sol: request.sol === undefined ? undefined : requireInteger(request.sol, 'lamports'),
    tokens,
  }
}

const methods: Record<string, Handler> = {
  getHealth: () => 'ok',
  getVersion: () => ({ 'feature-set': FEATURE_SET, 'solana-core': SOLANA_CORE_VERSION }),
  getGenesisHash: (_p, { chain }) => chain.genesisHash,
  getIdentity: (_p, { faucet }) => ({ identity: faucet.payer.address }),
  getSlot: (p, { chain }) => {
    cfgAt(p, 0, chain)
    return chain.slot
  },
  getBlockHeight: (p, { chain }) => {
    cfgAt(p, 0, chain)
    return chain.blockHeight
  },
  getTransactionCount: (p, { chain }) => {
    cfgAt(p, 0, chain)
    return chain.transactionCount
  },
  getFirstAvailableBlock: () => 0,
  getMinimumLedgerSlot: () => 0,
  getEpochInfo: (p, { chain }) => {
    cfgAt(p, 0, chain)
    return {
      absoluteSlot: chain.slot,
      blockHeight: chain.blockHeight,
      epoch: chain.epoch,
      slotIndex: chain.slot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: chain.transactionCount,
    }
  },
  getEpochSchedule: () => ({
    firstNormalEpoch: 0,
    firstNormalSlot: 0,
    leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
    slotsPerEpoch: SLOTS_PER_EPOCH,
    warmup: false,
  }),
  getLatestBlockhash: (p, { chain }) => {
    cfgAt(p, 0, chain)
    return withContext(chain, chain.latestBlockhash())
  },
  isBlockhashValid: (p, { chain }) => {
    const hash = p[0]
    cfgAt(p, 1, chain)
    if (typeof hash !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(hash)) {
      throw invalidParams('Invalid params: invalid blockhash')
    }
    return withContext(chain, chain.isBlockhashValid(hash))
  },
  getFeeForMessage: (p, { chain }) => {
    const text = requireString(p[0], 'a base64 encoded message')
    cfgAt(p, 1, chain)
    return withContext(chain, chain.feeForMessage(parseMessage(fromBase64(text))))
  },
  getRecentPrioritizationFees: (p, { chain }) => {
    if (p[0] !== undefined && !Array.isArray(p[0])) throw invalidParams('Invalid params: expected an address list')
    const accounts = ((p[0] as unknown[] | undefined) ?? []).map(requireAddress)
    if (accounts.length > 128) throw invalidParams('Invalid params: too many accounts provided; max 128')
    return chain.recentPrioritizationFees(accounts)
  },
  getMinimumBalanceForRentExemption: (p, { chain }) => {
    const length = requireInteger(p[0] ?? 0, 'a data length')
    cfgAt(p, 1, chain)
    return Number(chain.minimumBalanceForRentExemption(Number(length)))
  },

  getBalance: (p, { chain }) => {
    const address = requireAddress(p[0])
    cfgAt(p, 1, chain)
    return withContext(chain, chain.getBalance(address))
  },
  getAccountInfo: (p, { chain }) => {
    const address = requireAddress(p[0])
    const cfg = cfgAt(p, 1, chain)
    return withContext(chain, encodeMaybeAccount(chain, chain.getAccount(address), accountView(cfg, 'binary')))
  },
  getMultipleAccounts: (p, { chain }) => {
    if (!Array.isArray(p[0])) throw invalidParams('Invalid params: expected an address list')
    if (p[0].length > 100) throw invalidParams('Too many inputs provided; max 100')
    const addresses = p[0].map(requireAddress)
    const view = accountView(cfgAt(p, 1, chain), 'base64')
    return withContext(
      chain,
      addresses.map((a) => encodeMaybeAccount(chain, chain.getAccount(a), view)),
    )
  },
  getProgramAccounts: (p, { chain }) => {
    const program = requireAddress(p[0])
    const cfg = cfgAt(p, 1, chain)
    const view = accountView(cfg, 'binary')
    const filters = parseFilters(cfg.filters)
    const accounts = chain.svm
      .getProgramAccounts(program as Address)
      .filter((account) => matchesFilters(account.data, filters))
    const value = keyed(chain, accounts, view)
    return cfg.withContext === true ? withContext(chain, value) : value
  },
  getTokenAccountsByOwner: (p, { chain }) => {
    const owner = requireAddress(p[0])
    const filter = tokenAccountFilter(chain, p[1])
    const view = accountView(cfgAt(p, 2, chain), 'binary')
    return withContext(chain, keyed(chain, tokenAccounts(chain, owner, filter), view))
  },
  getTokenAccountBalance: (p, { chain }) => {
    const token = requireTokenAccount(chain, requireAddress(p[0]))
    cfgAt(p, 1, chain)
    const decimals = chain.mintDecimals(token.mint)
    if (decimals === null) throw invalidParams('Invalid param: could not find mint')
    return withContext(chain, uiTokenAmount(token.amount, decimals))
  },
  getTokenSupply: (p, { chain }) => {
    const address = requireAddress(p[0])
    cfgAt(p, 1, chain)
    const account = chain.getAccount(address)
    if (!account.exists) throw invalidParams('Invalid param: could not find mint')
    const mint = decodeMint(account.programAddress, account.data)
    if (!mint) throw invalidParams('Invalid param: not a Token mint')
    return withContext(chain, uiTokenAmount(mint.supply, mint.decimals))
  },

  sendTransaction: (p, { chain }) => {
    const cfg = cfgAt(p, 1, chain)
    const encoding = optionalEnum(cfg.encoding, ['base58', 'base64'] as const, 'base58')
    const wire = decodeWireTransaction(p[0], encoding)
    return chain.submit(wire, { skipPreflight: cfg.skipPreflight === true })
  },
  simulateTransaction: (p, { chain }) => {
    const cfg = cfgAt(p, 1, chain)
    const encoding = optionalEnum(cfg.encoding, ['base58', 'base64'] as const, 'base58')
    const wire = decodeWireTransaction(p[0], encoding)
    if (cfg.sigVerify === true && cfg.replaceRecentBlockhash === true) {
      throw invalidParams('sigVerify may not be used with replaceRecentBlockhash')
    }
    const result = chain.simulate(wire, {
      sigVerify: cfg.sigVerify === true,
      replaceRecentBlockhash: cfg.replaceRecentBlockhash === true,
    })
    let accounts: unknown = null
    if (cfg.accounts !== undefined && cfg.accounts !== null) {
      const accountsCfg = config(cfg.accounts)
      if (!Array.isArray(accountsCfg.addresses))
        throw invalidParams('Invalid params: accounts.addresses must be a list')
      const view = accountView(accountsCfg, 'base64')
      if (view.encoding === 'binary' || view.encoding === 'base58') {
        throw invalidParams('base58 encoding not supported')
      }
      accounts =
        result.err === null
          ? accountsCfg.addresses.map((a) => {
              const address = requireAddress(a)
              const post = result.postAccounts.get(address)
              return post
                ? encodeAccount(chain, post, view)
                : encodeMaybeAccount(chain, chain.getAccount(address), view)
            })
          : null
    }
    return withContext(chain, {
      accounts,
      err: result.err,
      fee: result.err === null ? result.fee : null,
      innerInstructions:
        cfg.innerInstructions === true ? parsedInnerInstructions(result.innerInstructions, result.accountKeys) : null,
      loadedAccountsDataSize: 0,
      logs: result.logs,
      replacementBlockhash: result.replacementBlockhash,
      returnData: result.returnData,
      unitsConsumed: result.unitsConsumed,
    })
  },
  getSignatureStatuses: (p, { chain }) => {
    if (!Array.isArray(p[0])) throw invalidParams('Invalid params: expected a signature list')
    if (p[0].length > 256) throw invalidParams('Too many inputs provided; max 256')
    const signatures = p[0].map(requireSignature)
    const searchHistory = config(p[1]).searchTransactionHistory === true
    return withContext(
      chain,
      signatures.map((s) => {
        const record = chain.getSignatureStatus(s, searchHistory)
        return record ? signatureStatus(record) : null
      }),
    )
  },
  getTransaction: (p, { chain }) => {
    const signature = requireSignature(p[0])
    const cfg = typeof p[1] === 'string' ? { encoding: p[1] } : cfgAt(p, 1, chain)
    rejectProcessed(cfg)
    const encoding = optionalEnum(cfg.encoding, ['json', 'jsonParsed', 'base64', 'base58'] as const, 'json')
    const max = cfg.maxSupportedTransactionVersion
    if (max !== undefined && max !== null && max !== 0) {
      throw invalidParams('Invalid params: maxSupportedTransactionVersion must be 0')
    }
    const record = chain.getTransaction(signature)
    return record ? formatTransaction(record, encoding, max === 0 ? 0 : undefined) : null
  },
  getSignaturesForAddress: (p, { chain }) => {
    const address = requireAddress(p[0])
    const cfg = cfgAt(p, 1, chain)
    rejectProcessed(cfg)
    const limit = cfg.limit === undefined || cfg.limit === null ? 1000 : Number(cfg.limit)
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalidParams('Invalid limit; max 1000')
    const before = cfg.before === undefined || cfg.before === null ? undefined : requireSignature(cfg.before)
    const until = cfg.until === undefined || cfg.until === null ? undefined : requireSignature(cfg.until)
    return chain.signaturesForAddress(address, { limit, before, until }).map(signatureInfo)
  },

  requestAirdrop: async (p, { chain, faucet }) => {
    const address = requireAddress(p[0])
    const lamports = requireInteger(p[1], 'lamports')
    cfgAt(p, 2, chain)
    return faucet.airdrop(address, lamports)
  },
  localnet_faucet: async (p, { faucet }) => faucet.fund(requireAddress(p[0]), faucetRequest(p[1])),
  localnet_getTokens: (_p, { faucet }) => faucet.tokens,
}

/** Runs one JSON-RPC method; throws RpcError for unknown methods and bad params. */
export async function callMethod(method: string, params: unknown, ctx: RpcContext): Promise<unknown> {
  const handler = Object.hasOwn(methods, method) ? methods[method] : undefined
  if (!handler) throw new RpcError(METHOD_NOT_FOUND, 'Method not found')
  return handler(positional(params), ctx)
}

export const RPC_METHODS = Object.keys(methods)
