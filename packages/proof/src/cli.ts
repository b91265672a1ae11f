#!/usr/bin/env -S npx tsx
// The standalone verifier of a proof of liabilities (docs/proof-of-liabilities.md): imports nothing but this package.
//   npm run verify-proof -- proof.json --rpc URL [--address A] [--treasury T]
// Exit code 0: the proof file's address is included in the snapshot, whose root the memo transaction published on
// chain (signed by the treasury when --treasury is given); 1: anything else.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { memoText, readProofFile, verifyInclusion } from './index.ts'

const USAGE = 'usage: npm run verify-proof -- <proof.json> --rpc <url> [--address <address>] [--treasury <address>]'

/** Base units as a decimal number of whole units (12500000, 6 → 12.5). */
function units(amount: string, decimals: number): string {
  const digits = amount.padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole
}

const parse = (argv: string[]) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    options: { rpc: { type: 'string' }, address: { type: 'string' }, treasury: { type: 'string' } },
  })

/** Runs the verifier on command-line arguments, printing each line; resolves the exit code. */
export async function main(argv: string[], print: (line: string) => void = console.log): Promise<number> {
  let args: ReturnType<typeof parse>
  try {
    args = parse(argv)
  } catch (error) {
    print(`${(error as Error).message}\n${USAGE}`)
    return 1
  }
  const [file, ...extra] = args.positionals
  const rpcUrl = args.values.rpc
  if (!file || extra.length > 0 || !rpcUrl) {
    print(USAGE)
    return 1
  }
  // `npm run` works in the project's folder: a relative path is the caller's.
  const where = path.resolve(process.env.INIT_CWD ?? process.cwd(), file)
  let text: string
  try {
    text = await readFile(where, 'utf8')
  } catch (error) {
    print(`NOT VERIFIED: cannot read ${where}: ${(error as Error).message}`)
    return 1
  }
  const read = readProofFile(text)
  if (!read.ok) {
    print(`NOT VERIFIED: ${file} is not a proof file: ${read.message}`)
    return 1
  }
  const proof = read.file
  const address = args.values.address ?? proof.address
  if (address !== proof.address) {
    print(`NOT VERIFIED: ${file} is the proof of ${proof.address}, not of ${address}`)
    return 1
  }
  const amounts = proof.assets.map((asset, i) => `${units(proof.amounts[i] ?? '0', asset.decimals)} ${asset.coin}`)
  const sums = proof.assets.map((asset, i) => `${units(proof.root.sums[i] ?? '0', asset.decimals)} ${asset.coin}`)
  print(`Snapshot #${proof.snapshot_id} taken ${proof.taken_at} (reserves read at slot ${proof.slot})`)
  print(`Address ${address}: ${amounts.join(', ')} (leaf ${proof.leaf_index}, ${proof.siblings.length} levels)`)
  print(`Root ${proof.root.hash}: ${sums.join(', ')} owed to all users`)
  print(`Expected memo: ${memoText(proof.snapshot_id, proof.root)}`)

  const result = await verifyInclusion({ proof, address, rpcUrl, treasury: args.values.treasury })
  if (!result.ok) {
    print(`NOT VERIFIED (${result.reason}): ${result.message}`)
    return 1
  }
  const { transaction } = result
  const when = transaction.blockTime === null ? '' : ` at ${new Date(transaction.blockTime * 1000).toISOString()}`
  print(
    `Memo transaction ${transaction.signature}: slot ${transaction.slot}${when}, signed by ${transaction.signers.join(', ')}`,
  )
  if (args.values.treasury === undefined) {
    print('No --treasury given: check that a signer above is the platform treasury address.')
  }
  print(`VERIFIED: ${address} is included in snapshot #${proof.snapshot_id} with ${amounts.join(', ')}`)
  return 0
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2))
}
