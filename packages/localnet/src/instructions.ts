import { toBase58 } from './codec.ts'
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID, uiTokenAmount } from './token.ts'

const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111'
const ASSOCIATED_TOKEN_PROGRAM_ID = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'
export const MEMO_PROGRAM_IDS = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
])

type Info = Record<string, unknown>
interface Parsed {
  program: string
  parsed: unknown
}

/**
 * The jsonParsed form of an instruction, like real RPC: `{program, programId, parsed, stackHeight}` for the programs
 * parsed here (system, spl-token, associated token account, memo), otherwise the partially decoded form
 * `{programId, accounts, data, stackHeight}`.
 */
export function jsonParsedInstruction(
  programId: string,
  accounts: string[],
  data: Uint8Array,
  stackHeight: number | null,
): Record<string, unknown> {
  let parsed: Parsed | null = null
  try {
    parsed = parse(programId, accounts, data)
  } catch {
    parsed = null
  }
  if (parsed) return { ...parsed, programId, stackHeight }
  return { accounts, data: toBase58(data), programId, stackHeight }
}

function parse(programId: string, accounts: string[], data: Uint8Array): Parsed | null {
  if (programId === SYSTEM_PROGRAM_ID) return wrap('system', parseSystem(accounts, data))
  if (programId === TOKEN_PROGRAM_ID) return wrap('spl-token', parseToken(accounts, data))
  if (programId === TOKEN_2022_PROGRAM_ID) return wrap('spl-token-2022', parseToken(accounts, data))
  if (programId === ASSOCIATED_TOKEN_PROGRAM_ID) return wrap('spl-associated-token-account', parseAta(accounts, data))
  if (MEMO_PROGRAM_IDS.has(programId)) return { program: 'spl-memo', parsed: new TextDecoder().decode(data) }
  return null
}

function wrap(program: string, parsed: { type: string; info: Info } | null): Parsed | null {
  return parsed ? { program, parsed } : null
}

function at(accounts: string[], index: number): string {
  const key = accounts[index]
  if (key === undefined) throw new Error('missing account')
  return key
}

function parseSystem(accounts: string[], bytes: Uint8Array): { type: string; info: Info } | null {
  const data = Buffer.from(bytes)
  if (data.length < 4) return null
  switch (data.readUInt32LE(0)) {
    case 0:
      return {
        type: 'createAccount',
        info: {
          source: at(accounts, 0),
          newAccount: at(accounts, 1),
          lamports: Number(data.readBigUInt64LE(4)),
          space: Number(data.readBigUInt64LE(12)),
          owner: toBase58(data.subarray(20, 52)),
        },
      }
    case 1:
      return { type: 'assign', info: { account: at(accounts, 0), owner: toBase58(data.subarray(4, 36)) } }
    case 2:
      return {
        type: 'transfer',
        info: { source: at(accounts, 0), destination: at(accounts, 1), lamports: Number(data.readBigUInt64LE(4)) },
      }
    case 4:
      return {
        type: 'advanceNonce',
        info: {
          nonceAccount: at(accounts, 0),
          recentBlockhashesSysvar: at(accounts, 1),
          nonceAuthority: at(accounts, 2),
        },
      }
    case 8:
      return { type: 'allocate', info: { account: at(accounts, 0), space: Number(data.readBigUInt64LE(4)) } }
    default:
      return null
  }
}

function optionalAuthority(data: Buffer, tagOffset: number): string | undefined {
  return data[tagOffset] === 1 ? toBase58(data.subarray(tagOffset + 1, tagOffset + 33)) : undefined
}

function parseToken(accounts: string[], bytes: Uint8Array): { type: string; info: Info } | null {
  const data = Buffer.from(bytes)
  const amount = () => data.readBigUInt64LE(1)
  const checkedAmount = () => uiTokenAmount(data.readBigUInt64LE(1), data[9] ?? 0)
  switch (data[0]) {
    case 0:
    case 20: {
      const info: Info = { mint: at(accounts, 0), decimals: data[1], mintAuthority: toBase58(data.subarray(2, 34)) }
      const freezeAuthority = optionalAuthority(data, 34)
      if (freezeAuthority) info.freezeAuthority = freezeAuthority
      if (data[0] === 0) info.rentSysvar = at(accounts, 1)
      return { type: data[0] === 0 ? 'initializeMint' : 'initializeMint2', info }
    }
    case 1:
      return {
        type: 'initializeAccount',
        info: { account: at(accounts, 0), mint: at(accounts, 1), owner: at(accounts, 2), rentSysvar: at(accounts, 3) },
      }
    case 3:
      return {
        type: 'transfer',
        info: {
          source: at(accounts, 0),
          destination: at(accounts, 1),
          authority: at(accounts, 2),
          amount: amount().toString(),
        },
      }
    case 7:
      return {
        type: 'mintTo',
        info: {
          mint: at(accounts, 0),
          account: at(accounts, 1),
          mintAuthority: at(accounts, 2),
          amount: amount().toString(),
        },
      }
    case 8:
      return {
        type: 'burn',
        info: {
          account: at(accounts, 0),
          mint: at(accounts, 1),
          authority: at(accounts, 2),
          amount: amount().toString(),
        },
      }
    case 9:
      return {
        type: 'closeAccount',
        info: { account: at(accounts, 0), destination: at(accounts, 1), owner: at(accounts, 2) },
      }
    case 12:
      return {
        type: 'transferChecked',
        info: {
          source: at(accounts, 0),
          mint: at(accounts, 1),
          destination: at(accounts, 2),
          authority: at(accounts, 3),
          tokenAmount: checkedAmount(),
        },
      }
    case 14:
      return {
        type: 'mintToChecked',
        info: {
          mint: at(accounts, 0),
          account: at(accounts, 1),
          mintAuthority: at(accounts, 2),
          tokenAmount: checkedAmount(),
        },
      }
    case 15:
      return {
        type: 'burnChecked',
        info: {
          account: at(accounts, 0),
          mint: at(accounts, 1),
          authority: at(accounts, 2),
          tokenAmount: checkedAmount(),
        },
      }
    case 16:
      return {
        type: 'initializeAccount2',
        info: {
          account: at(accounts, 0),
          mint: at(accounts, 1),
          owner: toBase58(data.subarray(1, 33)),
          rentSysvar: at(accounts, 2),
        },
      }
    case 17:
      return { type: 'syncNative', info: { account: at(accounts, 0) } }
    case 18:
      return {
        type: 'initializeAccount3',
        info: { account: at(accounts, 0), mint: at(accounts, 1), owner: toBase58(data.subarray(1, 33)) },
      }
    case 21:
      return { type: 'getAccountDataSize', info: { mint: at(accounts, 0) } }
    case 22:
      return { type: 'initializeImmutableOwner', info: { account: at(accounts, 0) } }
    default:
      return null
  }
}

function parseAta(accounts: string[], data: Uint8Array): { type: string; info: Info } | null {
  const kind = data.length === 0 ? 0 : data[0]
  if (kind !== 0 && kind !== 1) return null
  return {
    type: kind === 0 ? 'create' : 'createIdempotent',
    info: {
      source: at(accounts, 0),
      account: at(accounts, 1),
      wallet: at(accounts, 2),
      mint: at(accounts, 3),
      systemProgram: at(accounts, 4),
      tokenProgram: at(accounts, 5),
    },
  }
}
