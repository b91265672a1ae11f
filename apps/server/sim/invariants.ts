// What must hold after every step, whatever the faults: read from the database (without faults) and from the chain
// itself, never from what the server says of the chain. Each failure names its invariant; the run prints it with the
// step and the shrunk command list.
import { api } from '@solpledge/contract'
import type { TransactionRecord } from '@solpledge/localnet'
import { sql } from 'kysely'
import { addDays } from '../src/lib/day.ts'
import { checkInvariants } from '../src/modules/ledger/service.ts'
import { owedTotals } from '../src/modules/liabilities/index.ts'
import { type Clients, type Counter, isFinal, succeeded } from './client.ts'
import { Violation } from './violation.ts'
import type { World } from './world.ts'

const fail = (invariant: string, problems: string[]) => {
  if (problems.length > 0) throw new Violation(invariant, problems.slice(0, 5).join('; '))
}

/** A landed transaction's change of `owner`'s balance of `mint` (its token accounts, before and after). */
function delta(record: TransactionRecord, owner: string, mint: string): bigint {
  const key = `${owner} ${mint}`
  let known = deltas.get(record)
  if (!known) {
    known = new Map()
    deltas.set(record, known)
  }
  let change = known.get(key)
  if (change === undefined) {
    const sum = (list: TransactionRecord['preTokenBalances']) =>
      list
        .filter((b) => b.owner === owner && b.mint === mint)
        .reduce((total, b) => total + BigInt(b.uiTokenAmount.amount), 0n)
    change = sum(record.postTokenBalances) - sum(record.preTokenBalances)
    known.set(key, change)
  }
  return change
}
/** What `delta` found, per transaction (it never changes once landed). */
const deltas = new WeakMap<TransactionRecord, Map<string, bigint>>()

/** The withdrawal a landed payout pays (its memo `withdraw:<id>`), or null. */
const payoutOf = (record: TransactionRecord): string | null =>
  record.logMessages.map((line) => /^Program log: withdraw:(\d+)$/.exec(line)?.[1]).find(Boolean) ?? null

/** Snapshots already compared with the books, per world. */
const checkedSnapshots = new WeakMap<World, string>()

/**
 * Every invariant. The solvency report is asked through its route (RPC calls included) when `report` is set — every
 * fifth step and at the end: the owed totals it reports come from the function checked against the books every step.
 */
export async function checkAll(world: World, clients: Clients, report = true) {
  const db = world.engine.observer

  // Every transfer balances, every balance is its transfers, no user account is negative.
  fail('ledger balances', await checkInvariants(db))

  const assets = await db.selectFrom('assets').select(['code', 'mint']).where('mint', 'is not', null).execute()
  const landed = world.landed.filter((record) => record.err === null)
  const bySignature = new Map(landed.map((record) => [record.signature, record]))

  // Each on-chain payment credits at most once (the signature pays one intent ever) and each credit is a payment that
  // landed, into the treasury, of exactly the intent's amount.
  const intents = await db
    .selectFrom('payment_intents as i')
    .innerJoin('assets as a', 'a.code', 'i.asset')
    .select(['i.id', 'i.asset', 'i.amount', 'i.signature', 'a.mint'])
    .where('i.status', '=', 'fulfilled')
    .execute()
  const credits = new Map(
    (
      await db
        .selectFrom('ledger_transfers')
        .select(['idempotency_key', 'amount'])
        .where('type', '=', 'deposit')
        .execute()
    ).map((t) => [t.idempotency_key, t.amount]),
  )
  const problems: string[] = []
  const creditedSignatures = new Set<string>()
  for (const intent of intents) {
    const record = bySignature.get(intent.signature as string)
    const received = record ? delta(record, world.treasury.address, intent.mint as string) : null
    if (received !== BigInt(intent.amount))
      problems.push(`intent ${intent.id} credited for ${intent.signature}, which put ${received} on chain`)
    if (credits.get(`intent:${intent.id}`) !== intent.amount)
      problems.push(`intent ${intent.id}: credit ${credits.get(`intent:${intent.id}`)} for ${intent.amount}`)
    if (creditedSignatures.has(intent.signature as string)) problems.push(`${intent.signature} credited twice`)
    creditedSignatures.add(intent.signature as string)
  }
  if (credits.size !== intents.length) problems.push(`${credits.size} deposit credits for ${intents.length} intents`)
  fail('each payment credits at most once and each credit is on chain', problems)

  // Each withdrawal is paid at most once, and once confirmed exactly once, by the transaction it stored.
  const withdrawals = await db
    .selectFrom('withdrawals')
    .select(['id', 'status', 'signature', 'amount', 'fee', 'asset'])
    .execute()
  const payouts = new Map<string, TransactionRecord[]>()
  for (const record of landed) {
    const id = payoutOf(record)
    if (id) payouts.set(id, [...(payouts.get(id) ?? []), record])
  }
  for (const w of withdrawals) {
    const paid = payouts.get(w.id) ?? []
    if (paid.length > 1) problems.push(`withdrawal ${w.id} paid ${paid.length} times on chain`)
    if (w.status === 'confirmed' && (paid.length !== 1 || paid[0]?.signature !== w.signature))
      problems.push(`withdrawal ${w.id} confirmed but paid on chain by ${paid.map((p) => p.signature)}`)
    if (['failed', 'rejected', 'review', 'pending'].includes(w.status) && paid.length > 0)
      problems.push(`withdrawal ${w.id} is ${w.status} but was paid on chain`)
  }
  fail('each withdrawal is paid at most once, and once confirmed exactly once', problems)

  // The platform's wallets reconcile with the ledger: what the treasury and the hot wallet hold, plus the payouts that
  // landed but are not settled yet, less what the simulator put there and the payments nobody was credited for, is
  // what the ledger's chain account says came in and went out.
  const chainAccounts = new Map(
    (
      await db
        .selectFrom('ledger_accounts')
        .select(['asset', 'balance'])
        .where('user_id', 'is', null)
        .where('kind', '=', 'chain')
        .execute()
    ).map((a) => [a.asset, BigInt(a.balance)]),
  )
  const status = new Map(withdrawals.map((w) => [w.id, w]))
  for (const asset of assets) {
    const mint = asset.mint as string
    let holdings = 0n
    let uncredited = 0n
    let unsettled = 0n
    for (const record of landed) {
      const toTreasury = delta(record, world.treasury.address, mint)
      const toHot = delta(record, world.hotWallet.address, mint)
      holdings += toTreasury + toHot
      if (toTreasury > 0n && toHot === 0n && !creditedSignatures.has(record.signature)) uncredited += toTreasury
      const id = payoutOf(record)
      if (id && toHot < 0n && status.get(id)?.status !== 'confirmed') unsettled -= toHot
    }
    const ledgerNet = -(chainAccounts.get(asset.code) ?? 0n)
    const expected = holdings + unsettled - (world.minted.get(mint) ?? 0n) - uncredited
    if (expected !== ledgerNet)
      problems.push(
        `${asset.code}: holdings ${holdings} + unsettled payouts ${unsettled} - funding ${world.minted.get(mint)} ` +
          `- uncredited ${uncredited} = ${expected}, ledger chain account says ${ledgerNet}`,
      )
  }
  fail('hot wallet + pending payouts reconcile with the ledger', problems)

  // Each settlement day is paid once and in order: the done days follow each other, a running day comes after them,
  // and each user was paid for a done day exactly the sum of their output records of that day.
  const runs = await db.selectFrom('settlement_runs').select(['day', 'status']).orderBy('day').execute()
  const done = runs.filter((r) => r.status === 'done').map((r) => r.day)
  for (let i = 1; i < done.length; i++)
    if (done[i] !== addDays(done[i - 1] as string, 1)) problems.push(`days ${done[i - 1]} then ${done[i]} settled`)
  const running = runs.filter((r) => r.status === 'running')
  if (running.length > 1 || (running[0] && done.length > 0 && running[0].day < (done.at(-1) as string)))
    problems.push(`running ${running.map((r) => r.day)} with done up to ${done.at(-1)}`)
  const { rows: unpaid } = await sql<{ user_id: string; asset: string; day: string; owed: string; paid: string }>`
    with records as (
      select o.user_id, o.asset, o.day::text as day, sum(o.amount) as owed
      from output_records o join settlement_runs r on r.day = o.day and r.status = 'done'
      group by 1, 2, 3),
    paid as (
      select a.user_id, t.asset, substr(t.reference, 12) as day, sum(t.amount) as paid, count(*) as n
      from ledger_transfers t join ledger_accounts a on a.id = t.credit_account_id
      where t.type = 'settlement' group by 1, 2, 3)
    select coalesce(r.user_id, p.user_id) as user_id, coalesce(r.asset, p.asset) as asset,
      coalesce(r.day, p.day) as day, coalesce(r.owed, 0) as owed, coalesce(p.paid, 0) as paid
    from records r full join paid p on p.user_id = r.user_id and p.asset = r.asset and p.day = r.day
    where coalesce(p.n, 0) > 1 or (r.day is not null and coalesce(p.paid, 0) <> r.owed)
      or (r.day is null and p.day in (select day::text from settlement_runs where status = 'done'))`.execute(db)
  for (const row of unpaid)
    problems.push(`user ${row.user_id} ${row.asset} day ${row.day}: owed ${row.owed}, paid ${row.paid}`)
  fail('each settlement day is paid at most once and in order', problems)

  // A liabilities snapshot's root sums are what the books owe at its moment: nothing else ran in its step.
  const owed = await owedTotals(db)
  const snapshots = await db
    .selectFrom('liability_snapshots')
    .select(['id', 'assets', 'root_sums', 'memo', 'status', 'signature'])
    .where('id', '>', checkedSnapshots.get(world) ?? '0')
    .orderBy('id')
    .execute()
  for (const snapshot of snapshots) {
    snapshot.assets.forEach(({ coin }, i) => {
      if (BigInt(snapshot.root_sums[i] as string) !== (owed.get(coin) ?? 0n))
        problems.push(`snapshot ${snapshot.id} sums ${coin} ${snapshot.root_sums[i]}, the books owe ${owed.get(coin)}`)
    })
    checkedSnapshots.set(world, snapshot.id)
  }
  fail("the liabilities snapshot's root sums equal the owed totals at its moment", problems)

  // Each root is published once: one landed memo per snapshot.
  const memos = await db.selectFrom('liability_snapshots').select(['id', 'memo']).execute()
  for (const { id, memo } of memos) {
    const count = landed.filter((r) => r.logMessages.includes(`Program log: ${memo}`)).length
    if (count > 1) problems.push(`snapshot ${id}'s root published ${count} times`)
  }
  fail('each liabilities root is published at most once', problems)

  // The solvency report (the users' page) says what the books owe.
  if (report) {
    const answer = await world.call(api.solvency, {}, {}, undefined, 'none')
    if (answer === 'crashed') throw new Violation('solvency report = owed totals', 'no answer')
    for (const line of (answer.envelope.data as { list: { coin: string; liabilities: string }[] }).list)
      if (BigInt(line.liabilities) !== (owed.get(line.coin) ?? 0n))
        problems.push(`${line.coin}: report ${line.liabilities}, books ${owed.get(line.coin)}`)
    fail('solvency report = owed totals', problems)
  }

  await checkExactlyOnce(world, clients, false)
}

/** What each counter counts, per owner: one query for all (kind, owner, n). */
const COUNTS = sql<{ kind: Counter; owner: string; n: string }>`
  select 'intents' as kind, user_id::text as owner, count(*) as n from payment_intents group by 2
  union all select 'stakes', user_id::text, count(*) from stakes where intent_id is null group by 2
  union all select 'deposits', user_id::text, count(*) from finance_deposits group by 2
  union all select 'withdrawals', user_id::text, count(*) from withdrawals group by 2
  union all select 'orders', user_id::text, count(*) from trade_orders group by 2
  union all select 'adjustments', requested_by, count(*) from adjustments group by 2
  union all select 'changes', proposed_by, count(*) from admin_changes group by 2`

/**
 * Every action that made something made it once: per owner, at least the successes and at most the successes plus the
 * actions still without an answer (whose first try may have committed). `settled`: every action has its answer.
 */
export async function checkExactlyOnce(world: World, clients: Clients, settled: boolean) {
  const problems: string[] = []
  const { rows } = await COUNTS.execute(world.engine.observer)
  const made = new Map(rows.map((r) => [`${r.kind} of ${r.owner}`, Number(r.n)]))
  const expected = new Map<string, { ok: number; open: number }>()
  for (const action of clients.actions) {
    if (!action.counter) continue
    const counted = `${action.counter.kind} of ${action.counter.owner}`
    const entry = expected.get(counted) ?? { ok: 0, open: 0 }
    if (succeeded(action)) entry.ok++
    else if (!isFinal(action)) entry.open++
    expected.set(counted, entry)
  }
  for (const counted of new Set([...made.keys(), ...expected.keys()])) {
    const n = made.get(counted) ?? 0
    const { ok, open } = expected.get(counted) ?? { ok: 0, open: 0 }
    if (n < ok || n > ok + open)
      problems.push(`${counted}: ${n} made, ${ok} answered success${open ? `, ${open} unanswered` : ''}`)
  }
  fail(settled ? 'each action took effect exactly once' : 'each action takes effect at most once', problems)
}
