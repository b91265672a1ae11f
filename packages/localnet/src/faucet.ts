import { createHash, randomBytes } from 'node:crypto'
import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getSignatureFromTransaction,
  getTransactionEncoder,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { getCreateAccountInstruction, getTransferSolInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import type { Chain } from './chain.ts'
import { fromBase64, toBase64 } from './codec.ts'
import { invalidParams } from './errors.ts'
import { requireAddress } from './params.ts'
import { TOKEN_2022_PROGRAM_ID } from './token.ts'

export interface TokenConfig {
  symbol: string
  decimals: number
  /** The mint's token program: the classic SPL Token program (default) or Token-2022 (a mint without extensions). */
  program?: 'token' | 'token-2022'
}

export interface TokenInfo {
  symbol: string
  mint: string
  decimals: number
  /** The address of the program that owns the mint (Tokenkeg… or TokenzQd…). */
  program: string
}

export interface FaucetRequest {
  /** Lamports to send. */
  sol?: bigint
  /** Base units to mint, by token symbol. */
  tokens?: Record<string, bigint>
}

export const DEFAULT_TOKENS: TokenConfig[] = [
  { symbol: 'PLG', decimals: 9 },
  { symbol: 'USDT', decimals: 6 },
]

const LAMPORTS_PER_SOL = 1_000_000_000n
/** The faucet is topped up to this balance (kept below 2^53 so every client reads it exactly). */
const FAUCET_FLOOR = 1_000_000n * LAMPORTS_PER_SOL

interface FaucetState {
  faucetSeed: string
  mintAuthoritySeed: string
  tokens: TokenInfo[]
}

/**
 * The local chain's faucet: a funded keypair that pays airdrops and fees, and the mint authority of the demo tokens.
 * Every action is a real, signed transaction that lands in the chain's history.
 */
export class Faucet {
  private constructor(
    private readonly chain: Chain,
    readonly payer: KeyPairSigner,
    readonly mintAuthority: KeyPairSigner,
    readonly tokens: TokenInfo[],
    private readonly newKey: (name: string) => Uint8Array,
  ) {}

  /**
   * Loads the faucet keys from the chain state (or creates them) and creates the configured mints that are missing.
   * With `seed`, new keys (the faucet's, the mint authority's, the mints') are derived from it instead of drawn.
   */
  static async init(chain: Chain, tokens: TokenConfig[], seed?: string): Promise<Faucet> {
    const newKey = (name: string) =>
      seed === undefined ? randomBytes(32) : createHash('sha256').update(`${seed}:${name}`).digest()
    const saved = chain.extras.faucet as FaucetState | undefined
    const state: FaucetState = saved ?? {
      faucetSeed: toBase64(newKey('faucet')),
      mintAuthoritySeed: toBase64(newKey('mint-authority')),
      tokens: [],
    }
    const payer = await createKeyPairSignerFromPrivateKeyBytes(fromBase64(state.faucetSeed))
    const mintAuthority = await createKeyPairSignerFromPrivateKeyBytes(fromBase64(state.mintAuthoritySeed))
    // State written before Token-2022 mints existed names no program: those mints are classic SPL Token mints.
    const known = state.tokens.map((t) => ({ ...t, program: t.program ?? TOKEN_PROGRAM_ADDRESS }))
    const faucet = new Faucet(chain, payer, mintAuthority, known, newKey)
    chain.ensureLamports(payer.address, FAUCET_FLOOR)
    for (const token of tokens) {
      if (!/^[A-Za-z0-9]{1,16}$/.test(token.symbol)) throw new Error(`invalid token symbol ${token.symbol}`)
      if (!Number.isInteger(token.decimals) || token.decimals < 0 || token.decimals > 18) {
        throw new Error(`invalid decimals for ${token.symbol}`)
      }
      if (faucet.tokens.some((t) => t.symbol === token.symbol)) continue
      faucet.tokens.push(await faucet.createMint(token))
    }
    chain.extras.faucet = { ...state, tokens: faucet.tokens } satisfies FaucetState
    chain.markDirty()
    return faucet
  }

  private async createMint(token: TokenConfig): Promise<TokenInfo> {
    const mint = await createKeyPairSignerFromPrivateKeyBytes(this.newKey(`mint:${token.symbol}`))
    const space = getMintSize()
    const program = token.program === 'token-2022' ? (TOKEN_2022_PROGRAM_ID as Address) : TOKEN_PROGRAM_ADDRESS
    await this.send([
      getCreateAccountInstruction({
        payer: this.payer,
        newAccount: mint,
        lamports: this.chain.minimumBalanceForRentExemption(space),
        space,
        programAddress: program,
      }),
      getInitializeMint2Instruction(
        {
          mint: mint.address,
          decimals: token.decimals,
          mintAuthority: this.mintAuthority.address,
          freezeAuthority: null,
        },
        { programAddress: program },
      ),
    ])
    return { symbol: token.symbol, mint: mint.address, decimals: token.decimals, program }
  }

  /** requestAirdrop: a SOL transfer from the faucet. */
  async airdrop(address: string, lamports: bigint): Promise<string> {
    requireAddress(address)
    if (lamports <= 0n) throw invalidParams('Invalid params: airdrop amount must be positive')
    this.chain.ensureLamports(this.payer.address, FAUCET_FLOOR + lamports)
    return this.send([
      getTransferSolInstruction({ source: this.payer, destination: address as Address, amount: lamports }),
    ])
  }

  /** Sends SOL and/or mints demo tokens (creating the associated token account when missing). */
  async fund(address: string, request: FaucetRequest): Promise<string[]> {
    requireAddress(address)
    const owner = address as Address
    const mints = Object.entries(request.tokens ?? {}).map(([symbol, amount]) => {
      const token = this.tokens.find((t) => t.symbol === symbol)
      if (!token) throw invalidParams(`Invalid params: unknown token ${symbol}`)
      if (amount <= 0n) throw invalidParams(`Invalid params: amount of ${symbol} must be positive`)
      return { token, amount }
    })
    const signatures: string[] = []
    if (request.sol !== undefined && request.sol > 0n) signatures.push(await this.airdrop(address, request.sol))
    for (const { token, amount } of mints) {
      const mint = token.mint as Address
      const tokenProgram = token.program as Address
      const [ata] = await findAssociatedTokenPda({ owner, mint, tokenProgram })
      this.chain.ensureLamports(this.payer.address, FAUCET_FLOOR)
      signatures.push(
        await this.send([
          getCreateAssociatedTokenIdempotentInstruction({ payer: this.payer, ata, owner, mint, tokenProgram }),
          getMintToInstruction(
            { mint, token: ata, mintAuthority: this.mintAuthority, amount },
            { programAddress: tokenProgram },
          ),
        ]),
      )
    }
    return signatures
  }

  /** Signs with the faucet (fee payer) and the signers inside the instructions, then submits with preflight. */
  private async send(instructions: Instruction[]): Promise<string> {
    for (;;) {
      const { blockhash, lastValidBlockHeight } = this.chain.latestBlockhash()
      const message = pipe(
        createTransactionMessage({ version: 'legacy' }),
        (m) => setTransactionMessageFeePayerSigner(this.payer, m),
        (m) =>
          setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: blockhash as Blockhash, lastValidBlockHeight: BigInt(lastValidBlockHeight) },
            m,
          ),
        (m) => appendTransactionMessageInstructions(instructions, m),
      )
      const signed = await signTransactionMessageWithSigners(message)
      // An identical request in the same slot would produce the same signature; wait for the next blockhash.
      if (this.chain.getTransaction(getSignatureFromTransaction(signed))) {
        if (this.chain.isClosed) throw new Error('the local chain is closed')
        await new Promise<void>((resolve) => {
          const off = this.chain.onSlot.on(() => {
            off()
            resolve()
          })
        })
        continue
      }
      return this.chain.submit(new Uint8Array(getTransactionEncoder().encode(signed)))
    }
  }
}
