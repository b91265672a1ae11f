// The workload: what users and operators do, one command per step, each a plain record (so a failing list prints as
// JSON and replays with --replay) drawn by fast-check with the faults of its step. Commands name users, orders, deposits
// by number, taken modulo what exists when they run: a shrunk list (commands removed) still runs.
import {
  type AdminAsset,
  api,
  type BusinessConfig,
  Code,
  type ConfigVersion,
  type PaymentIntent,
} from '@solpledge/contract'
import fc from 'fast-check'
import type { JobName } from '../src/lib/jobs.ts'
import { DEFAULT_BUSINESS_CONFIG } from '../src/modules/config/defaults.ts'
import { type Action, type Actor, type Clients, isFinal, type SimUser } from './client.ts'
import { type StepFaults, senderStepFaults, stepFaults } from './faults.ts'
import type { Trace } from './trace.ts'
import { Violation } from './violation.ts'
import type { World } from './world.ts'

export type Coin = 'USDT' | 'PLG'
/** How a client pays an intent on chain: and reports it, never reports it, reports it twice, pays a wrong amount, or never pays. */
export type Pay = 'report' | 'unreported' | 'twice' | 'wrong' | 'none'

export type Spec = (
  | { kind: 'signup'; parent: number }
  | { kind: 'topup'; user: number; coin: Coin; cents: number; pay: Pay }
  | { kind: 'stakeChain'; user: number; cents: number; period: number; pay: Pay }
  | { kind: 'nodeChain'; user: number; level: number; pay: Pay }
  | { kind: 'withdraw'; user: number; coin: Coin; cents: number }
  | { kind: 'stake'; user: number; cents: number; period: number }
  | { kind: 'node'; user: number; level: number }
  | { kind: 'deposit'; user: number; product: number; cents: number }
  | { kind: 'redeem'; user: number; pick: number }
  | { kind: 'order'; user: number; side: 'sell' | 'buy'; ticks: number; lots: number }
  | { kind: 'cancel'; user: number; pick: number }
  | { kind: 'swap'; user: number; from: Coin; cents: number }
  | { kind: 'retry'; pick: number; open: boolean }
  | { kind: 'double'; user: number; copies: number; what: 'deposit' | 'stake' | 'withdraw' | 'report'; cents: number }
  | { kind: 'review'; pick: number; approve: boolean; admin: number }
  | { kind: 'adjust'; user: number; coin: Coin; cents: number; admin: number }
  | { kind: 'adjustDecide'; pick: number; approve: boolean; admin: number }
  | { kind: 'threshold'; coin: Coin; level: number; admin: number }
  | { kind: 'changeDecide'; pick: number; approve: boolean; admin: number }
  | { kind: 'config'; hour: number; referralBps: number; admin: number }
  | { kind: 'snapshot' }
  | { kind: 'refill'; coin: Coin; cents: number }
  /** A pass of a job; `passes: 2` runs the next one at once (the sender's next pass before the node lands a send). */
  | { kind: 'job'; name: JobName; passes?: number }
  | { kind: 'clock'; ms: number }
  | { kind: 'crash' }
) & { faults: StepFaults }

/** Base units of `cents` hundredths of a whole token. */
const units = (coin: Coin, cents: number) => BigInt(cents) * (coin === 'USDT' ? 10_000n : 10_000_000n)

const user = fc.nat(63)
const coin = fc.constantFrom<Coin>('USDT', 'PLG')
const pay = fc.constantFrom<Pay>('report', 'report', 'report', 'unreported', 'twice', 'wrong', 'none')
const admin = fc.nat(5)
/** A staking period of the configuration (0–2), now and then one that is not (3). */
const period = fc.oneof({ arbitrary: fc.nat(2), weight: 7 }, { arbitrary: fc.constant(3), weight: 1 })
const pick = fc.nat(63)
const HOUR = 3_600_000

/** Each kind with its weight in the mix, and the faults of its step when they are not `stepFaults`. */
const kinds: [number, fc.Arbitrary<Omit<Spec, 'faults'>>, fc.Arbitrary<StepFaults>?][] = [
  [4, fc.record({ kind: fc.constant('signup' as const), parent: fc.nat(63) })],
  [
    12,
    fc.record({
      kind: fc.constant('topup' as const),
      user,
      coin,
      cents: fc.integer({ min: 100, max: 2_000_000 }),
      pay,
    }),
  ],
  [
    3,
    fc.record({
      kind: fc.constant('stakeChain' as const),
      user,
      cents: fc.integer({ min: 10_000, max: 2_000_000 }),
      period,
      pay,
    }),
  ],
  [2, fc.record({ kind: fc.constant('nodeChain' as const), user, level: fc.nat(3), pay })],
  [
    6,
    fc.record({ kind: fc.constant('withdraw' as const), user, coin, cents: fc.integer({ min: 500, max: 2_000_000 }) }),
  ],
  [
    6,
    fc.record({
      kind: fc.constant('stake' as const),
      user,
      cents: fc.integer({ min: 10_000, max: 2_000_000 }),
      period,
    }),
  ],
  [2, fc.record({ kind: fc.constant('node' as const), user, level: fc.nat(3) })],
  [
    6,
    fc.record({
      kind: fc.constant('deposit' as const),
      user,
      product: fc.nat(4),
      cents: fc.integer({ min: 100, max: 500_000 }),
    }),
  ],
  [3, fc.record({ kind: fc.constant('redeem' as const), user, pick })],
  [
    6,
    fc.record({
      kind: fc.constant('order' as const),
      user,
      side: fc.constantFrom('sell' as const, 'buy' as const),
      ticks: fc.integer({ min: 4000, max: 6000 }),
      lots: fc.integer({ min: 100, max: 500_000 }),
    }),
  ],
  [3, fc.record({ kind: fc.constant('cancel' as const), user, pick })],
  [
    3,
    fc.record({
      kind: fc.constant('swap' as const),
      user,
      from: coin,
      cents: fc.integer({ min: 100, max: 1_000_000 }),
    }),
  ],
  [6, fc.record({ kind: fc.constant('retry' as const), pick, open: fc.boolean() })],
  [
    2,
    fc.record({
      kind: fc.constant('double' as const),
      user,
      copies: fc.integer({ min: 2, max: 4 }),
      what: fc.constantFrom('deposit' as const, 'stake' as const, 'withdraw' as const, 'report' as const),
      cents: fc.integer({ min: 100, max: 100_000 }),
    }),
  ],
  [3, fc.record({ kind: fc.constant('review' as const), pick, approve: fc.boolean(), admin })],
  [
    2,
    fc.record({
      kind: fc.constant('adjust' as const),
      user,
      coin,
      cents: fc.integer({ min: -100_000, max: 100_000 }).filter((c) => c !== 0),
      admin,
    }),
  ],
  [2, fc.record({ kind: fc.constant('adjustDecide' as const), pick, approve: fc.boolean(), admin })],
  [1, fc.record({ kind: fc.constant('threshold' as const), coin, level: fc.nat(4), admin })],
  [1, fc.record({ kind: fc.constant('changeDecide' as const), pick, approve: fc.boolean(), admin })],
  [
    1,
    fc.record({
      kind: fc.constant('config' as const),
      hour: fc.nat(23),
      referralBps: fc.integer({ min: 0, max: 2000 }),
      admin,
    }),
  ],
  [1, fc.constant({ kind: 'snapshot' as const })],
  [1, fc.record({ kind: fc.constant('refill' as const), coin, cents: fc.integer({ min: 100_000, max: 100_000_000 }) })],
  [
    5,
    fc.record({
      kind: fc.constant('job' as const),
      name: fc.constant('withdrawal-sender' as const),
      passes: fc.constantFrom(1, 2),
    }),
    senderStepFaults,
  ],
  [3, fc.constant({ kind: 'job' as const, name: 'intent-watcher' as const })],
  [3, fc.constant({ kind: 'job' as const, name: 'settlement' as const })],
  [1, fc.constant({ kind: 'job' as const, name: 'liabilities-snapshot' as const })],
  [1, fc.constant({ kind: 'job' as const, name: 'rank-snapshots' as const })],
  [1, fc.constant({ kind: 'job' as const, name: 'nonce-purge' as const })],
  [2, fc.constant({ kind: 'job' as const, name: 'scheduled-changes' as const })],
  // The clock: seconds, minutes, across the settlement hour, across a day, across a deposit's term.
  [
    5,
    fc.record({
      kind: fc.constant('clock' as const),
      ms: fc.oneof(
        fc.integer({ min: 1000, max: 60_000 }),
        fc.integer({ min: 60_000, max: HOUR }),
        fc.integer({ min: HOUR, max: 12 * HOUR }),
        fc.constant(24 * HOUR),
        fc.constant(7 * 24 * HOUR),
      ),
    }),
  ],
  [1, fc.constant({ kind: 'crash' as const })],
]

/** One step: a command and the faults that may strike during it. */
export const spec: fc.Arbitrary<Spec> = fc.oneof(
  ...kinds.map(([weight, command, faults = stepFaults]) => ({
    weight,
    arbitrary: fc.tuple(command, faults).map(([c, f]) => ({ ...c, faults: f }) as Spec),
  })),
)

export interface StepContext {
  world: World
  clients: Clients
  trace: Trace
}

const REVIEW_LEVELS: (bigint | null)[] = [100n, 1_000n, 10_000n, 100_000n, null]

/** Runs one command. */
export async function execute(s: Spec, { world, clients, trace }: StepContext): Promise<void> {
  const users = clients.users
  const userAt = (n: number) => users[n % users.length] as SimUser
  const adminAt = (n: number) => clients.admins[n % clients.admins.length] as (typeof clients.admins)[number]
  const topAdmin = (n: number) => clients.admins[n % 2] as (typeof clients.admins)[number]
  const act = (
    actor: Actor,
    name: string,
    route: Parameters<Clients['action']>[2],
    body: Record<string, unknown>,
    counter?: Parameters<Clients['action']>[4],
  ) => clients.send(clients.action(actor, name, route, body, counter))
  const read = async <T>(route: Parameters<Clients['action']>[2], body: Record<string, unknown>, actor: Actor) => {
    const answer = await clients.read(route, body, actor)
    return answer === null ? null : (answer as T)
  }
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id)

  switch (s.kind) {
    case 'signup': {
      const parent = users.length > 0 ? userAt(s.parent) : undefined
      const created = await clients.signUp(parent)
      trace.event(created ? `user ${created.n} signed up under user ${parent?.n}` : 'sign-up cut by a crash')
      return
    }
    case 'topup': {
      const u = userAt(s.user)
      const answer = await act(
        { user: u },
        'intentCreate',
        api.intentCreate,
        { purpose: 'recharge', coin: s.coin, amount: units(s.coin, s.cents).toString() },
        'intents',
      )
      return payIntent(u, answer, s.pay)
    }
    case 'stakeChain': {
      const u = userAt(s.user)
      const days = DEFAULT_BUSINESS_CONFIG.pledge.periods[s.period % 3]?.days ?? 1
      const answer = await act(
        { user: u },
        'intentCreate',
        api.intentCreate,
        { purpose: 'stake', amount: units('PLG', s.cents).toString(), days: s.period === 3 ? 7 : days },
        'intents',
      )
      return payIntent(u, answer, s.pay)
    }
    case 'nodeChain': {
      const u = userAt(s.user)
      const level = ['junior', 'senior', 'super', 'none'][s.level] as string
      const answer = await act({ user: u }, 'intentCreate', api.intentCreate, { purpose: 'node', level }, 'intents')
      return payIntent(u, answer, s.pay)
    }
    case 'withdraw': {
      // Mostly a user who has the coin, asking between the minimum (10) and part of what they have: payouts are what
      // the sender's faults are about. One in five asks the drawn amount of the drawn user, which may be too much.
      const minimum = units(s.coin, 1_000)
      const funded = await world.engine.observer
        .selectFrom('ledger_accounts')
        .select(['user_id', 'balance'])
        .where('asset', '=', s.coin)
        .where('kind', '=', 'available')
        .where('balance', '>', (minimum + units(s.coin, 100)).toString())
        .orderBy('user_id')
        .execute()
      const holder = s.cents % 5 !== 0 ? funded[s.user % Math.max(1, funded.length)] : undefined
      const u = (holder && users.find((x) => x.id === String(holder.user_id))) || userAt(s.user)
      let amount = units(s.coin, s.cents)
      if (holder) {
        const part = (BigInt(holder.balance) * BigInt(1 + (s.cents % 9))) / 10n
        if (part < amount) amount = part
        if (amount < minimum) amount = minimum
      }
      await act({ user: u }, 'withdraw', api.withdraw, { coin: s.coin, amount: amount.toString() }, 'withdrawals')
      return
    }
    case 'stake': {
      const days = s.period === 3 ? 7 : DEFAULT_BUSINESS_CONFIG.pledge.periods[s.period]?.days
      await act(
        { user: userAt(s.user) },
        'stake',
        api.pledgeStake,
        { amount: units('PLG', s.cents).toString(), days },
        'stakes',
      )
      return
    }
    case 'node':
      await act({ user: userAt(s.user) }, 'nodeBuy', api.nodeBuy, {
        level: ['junior', 'senior', 'super', 'none'][s.level],
        pay: 'balance',
      })
      return
    case 'deposit': {
      const days = [7, 30, 90, 180, 365][s.product]
      await act(
        { user: userAt(s.user) },
        'financeDeposit',
        api.financeDeposit,
        { days, amount: units('USDT', s.cents).toString() },
        'deposits',
      )
      return
    }
    case 'redeem': {
      const u = userAt(s.user)
      const deposits = await world.engine.observer
        .selectFrom('finance_deposits')
        .select(['id', 'status', 'redeemed_at'])
        .where('user_id', '=', u.id)
        .orderBy('id')
        .execute()
      // A client mostly redeems what matured; now and then it tries one that did not (or was redeemed already).
      const due = deposits.filter((d) => d.status === 'expired' && d.redeemed_at === null)
      const pool = due.length > 0 && s.pick % 4 !== 0 ? due : deposits
      if (pool.length === 0) return trace.event('nothing to redeem')
      await act({ user: u }, 'financeRedeem', api.financeRedeem, { id: ids(pool)[s.pick % pool.length] })
      return
    }
    case 'order': {
      const body = { price: (BigInt(s.ticks) * 100n).toString(), amount: (BigInt(s.lots) * 10_000_000n).toString() }
      await act(
        { user: userAt(s.user) },
        s.side === 'sell' ? 'tradeSell' : 'tradeBuy',
        s.side === 'sell' ? api.tradeSell : api.tradeBuy,
        body,
        'orders',
      )
      return
    }
    case 'cancel': {
      const u = userAt(s.user)
      const orders = await world.engine.observer
        .selectFrom('trade_orders')
        .select('id')
        .where('user_id', '=', u.id)
        .where('status', '=', 'pending')
        .orderBy('id')
        .execute()
      if (orders.length === 0) return trace.event('nothing to cancel')
      await act({ user: u }, 'tradeCancel', api.tradeCancel, { id: ids(orders)[s.pick % orders.length] })
      return
    }
    case 'swap':
      await act(
        { user: userAt(s.user) },
        'swap',
        api.swap,
        { from: s.from, amount: units(s.from, s.cents).toString(), min_received: '0' },
        'orders',
      )
      return
    case 'retry': {
      const recent = clients.actions.filter((a) => clients.retryable(a))
      const open = recent.filter((a) => !isFinal(a))
      const pool = s.open && open.length > 0 ? open : recent
      if (pool.length === 0) return trace.event('nothing to retry')
      const action = pool[s.pick % pool.length] as Action
      trace.event(`retry #${action.n} ${action.name}`)
      await clients.send(action)
      return
    }
    case 'double': {
      // A double tap: copies of one action (one key) at once. Or one payment reported by several tabs at once (a key
      // each).
      if (s.what === 'report') {
        const payment = clients.payments[s.user % Math.max(1, clients.payments.length)]
        if (!payment) return trace.event('no payment to report')
        const body = { id: payment.intent, signature: payment.signature }
        const actions = Array.from({ length: s.copies }, () =>
          clients.action({ user: payment.user }, 'intentSubmit', api.intentSubmit, body),
        )
        trace.event(`intent ${payment.intent} reported ${s.copies} times at once`)
        await clients.sendTogether(actions)
        return
      }
      const u = userAt(s.user)
      const action =
        s.what === 'deposit'
          ? clients.action(
              { user: u },
              'financeDeposit',
              api.financeDeposit,
              { days: 7, amount: units('USDT', s.cents).toString() },
              'deposits',
            )
          : s.what === 'stake'
            ? clients.action(
                { user: u },
                'stake',
                api.pledgeStake,
                { amount: units('PLG', s.cents * 10).toString(), days: 30 },
                'stakes',
              )
            : clients.action(
                { user: u },
                'withdraw',
                api.withdraw,
                { coin: 'USDT', amount: units('USDT', s.cents).toString() },
                'withdrawals',
              )
      trace.event(`${s.copies} copies at once`)
      await clients.sendTogether(Array.from({ length: s.copies }, () => action))
      return
    }
    case 'review': {
      const waiting = await world.engine.observer
        .selectFrom('withdrawals')
        .select('id')
        .where('status', '=', 'review')
        .orderBy('id')
        .execute()
      if (waiting.length === 0) return trace.event('nothing to review')
      const id = ids(waiting)[s.pick % waiting.length]
      const who = { admin: adminAt(s.admin) }
      if (s.approve) await act(who, 'withdrawalApprove', api.adminWithdrawalApprove, { id })
      else await act(who, 'withdrawalReject', api.adminWithdrawalReject, { id, reason: 'simulated review' })
      return
    }
    case 'adjust': {
      const u = userAt(s.user)
      const amount = units(s.coin, s.cents)
      await act(
        { admin: topAdmin(s.admin) },
        'adjust',
        api.adminAdjust,
        { address: u.wallet.address, coin: s.coin, amount: amount.toString(), reason: 'simulated adjustment' },
        'adjustments',
      )
      return
    }
    case 'adjustDecide': {
      const pending = await world.engine.observer
        .selectFrom('adjustments')
        .select('id')
        .where('status', '=', 'pending')
        .orderBy('id')
        .execute()
      if (pending.length === 0) return trace.event('no adjustment pending')
      const id = ids(pending)[s.pick % pending.length]
      const who = { admin: topAdmin(s.admin) }
      if (s.approve) await act(who, 'adjustApprove', api.adminAdjustApprove, { id })
      else await act(who, 'adjustReject', api.adminAdjustReject, { id, reason: 'simulated decision' })
      return
    }
    case 'threshold': {
      const who = { admin: topAdmin(s.admin) }
      const list = await read<{ list: AdminAsset[] }>(api.adminAssets, {}, who)
      const asset = list?.list.find((a) => a.coin === s.coin)
      if (!asset) return trace.event('asset list unavailable')
      const unit = 10n ** BigInt(asset.decimals)
      const level = REVIEW_LEVELS[s.level]
      const body = {
        coin: asset.coin,
        base_version: asset.version,
        is_user_recharge: asset.is_user_recharge,
        withdraw_enabled: asset.withdraw_enabled,
        min_withdraw: asset.min_withdraw,
        withdraw_fee: asset.withdraw_fee,
        review_threshold: level === null || level === undefined ? null : (level * unit).toString(),
        dual_review_threshold: asset.dual_review_threshold,
      }
      await act(who, 'assetSave', api.adminAssetSave, body, 'changes')
      return
    }
    case 'changeDecide': {
      const pending = await world.engine.observer
        .selectFrom('admin_changes')
        .select('id')
        .where('status', 'in', ['pending', 'scheduled'])
        .orderBy('id')
        .execute()
      if (pending.length === 0) return trace.event('no change pending or scheduled')
      const id = ids(pending)[s.pick % pending.length]
      const who = { admin: topAdmin(s.admin) }
      if (s.approve) await act(who, 'changeApprove', api.adminChangeApprove, { id })
      else await act(who, 'changeReject', api.adminChangeReject, { id, reason: 'simulated decision' })
      return
    }
    case 'config': {
      const who = { admin: topAdmin(s.admin) }
      const current = await read<ConfigVersion>(api.adminConfig, {}, who)
      if (!current) return trace.event('configuration unavailable')
      const value = current.value as BusinessConfig
      const next: BusinessConfig = {
        ...value,
        settlementHourUtc: s.hour,
        referralRewards: value.referralRewards.map((r) => (r.level === 1 ? { ...r, rateBps: s.referralBps } : r)),
      }
      await act(who, 'configSave', api.adminConfigSave, { base_version: current.id, value: next }, 'changes')
      return
    }
    case 'snapshot': {
      const answer = await world.call(
        api.liabilitiesSnapshot,
        {},
        { 'operator-token': world.config.operatorToken as string },
      )
      if (answer !== 'crashed') trace.event(`snapshot: ${answer.status} ${answer.envelope.code} ${answer.envelope.key}`)
      if (answer !== 'crashed' && answer.status >= 500 && world.faults.fired.length === 0)
        throw new Violation('no 5xx', `the liabilities snapshot answered ${answer.status}: ${answer.text}`)
      return
    }
    case 'refill': {
      const mint = world.local.tokens.find((t) => t.symbol === s.coin)?.mint as string
      try {
        world.pay(world.treasury, { owner: world.hotWallet.address, mint, amount: units(s.coin, s.cents) })
        trace.event(`treasury refilled the hot wallet with ${units(s.coin, s.cents)} ${s.coin}`)
      } catch {
        trace.event('the treasury cannot refill that much')
      }
      return
    }
    case 'job': {
      for (let pass = 0; pass < (s.passes ?? 1); pass++) {
        const failure = await world.job(s.name)
        if (failure === 'crashed') return trace.event(`${s.name}: cut by a crash`)
        trace.event(`${s.name}: ${failure === undefined ? 'ok' : `failed: ${(failure as Error).message}`}`)
        if (failure !== undefined && world.faults.fired.length === 0)
          throw new Violation('jobs pass without faults', `${s.name} failed: ${(failure as Error).stack ?? failure}`)
      }
      return
    }
    case 'clock':
      await world.advance(s.ms)
      return
    case 'crash':
      world.incarnation.dead = true
      return
  }

  /** The client pays an intent it was given (or not), and reports the payment (or not). */
  async function payIntent(u: SimUser, answer: Awaited<ReturnType<Clients['send']>>, how: Pay) {
    if (answer === 'crashed' || answer.envelope.code !== Code.OK || how === 'none') return
    const intent = answer.envelope.data as PaymentIntent
    const amount = BigInt(intent.amount) + (how === 'wrong' ? 1n : 0n)
    let signature: string
    try {
      signature = world.pay(u.wallet, {
        owner: intent.recipient,
        mint: intent.mint,
        amount,
        reference: intent.reference,
      })
    } catch (error) {
      return trace.event(
        `payment of intent ${intent.id} refused by the chain: ${(error as Error).message.slice(0, 80)}`,
      )
    }
    trace.event(`intent ${intent.id} paid${how === 'wrong' ? ' with a wrong amount' : ''}`)
    if (how !== 'wrong') clients.payments.push({ user: u, intent: intent.id, signature })
    if (how === 'unreported') return
    for (let report = 0; report < (how === 'twice' ? 2 : 1); report++)
      await act({ user: u }, 'intentSubmit', api.intentSubmit, { id: intent.id, signature })
  }
}
