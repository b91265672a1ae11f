// The clients of the simulated platform, and what they know: users (a wallet, a session) and operators (an allow-listed
// wallet, a console session), and every money call they made — its Idempotency-Key, its body and the answers they got.
// A client behaves as the web app and the console do: one key per action, the same key when it tries again (after a
// 500, or later, after no answer at all), a new sign-in when the session is refused.
import {
  type AdminLoginData,
  api,
  Code,
  LOGIN_TYPE,
  type LoginData,
  type PaymentIntent,
  type RouteDef,
} from '@solpledge/contract'
import { TAKEOVER_MS } from '../src/lib/idempotency.ts'
import type { Trace } from './trace.ts'
import { Violation } from './violation.ts'
import { type Answer, derive, SimWallet, type World } from './world.ts'

export interface SimUser {
  /** Index in the order of sign-up (0 is the root). */
  n: number
  wallet: SimWallet
  id: string
  token: string
}

export interface SimAdmin {
  n: number
  wallet: SimWallet
  role: 'admin' | 'operator'
  token: string
}

export type Actor = { user: SimUser } | { admin: SimAdmin } | { operator: true }

/** What a successful call of this action makes, counted per owner to check it was made exactly once. */
export type Counter = 'intents' | 'stakes' | 'deposits' | 'withdrawals' | 'orders' | 'adjustments' | 'changes'

/** One user action: one Idempotency-Key, however many times it is sent. */
export interface Action {
  n: number
  actor: Actor
  route: RouteDef
  name: string
  body: Record<string, unknown>
  key: string
  counter?: { kind: Counter; owner: string } | undefined
  /** The final answers (not a 500, not a lost one), byte for byte: all must be equal. */
  answers: string[]
  /** Tries that got no final answer (a crash, a 500). */
  unanswered: number
  /** When it was first sent (simulated ms). */
  sentAt: number
  /** The envelope code of its final answer, once it has one. */
  code?: number | undefined
}

/**
 * How long a client may send an action again with its key: the server keeps a key at least 24 h (docs/money.md); a
 * repeat after that is a new request, so a client gives the action up.
 */
export const RETRY_WINDOW_MS = 24 * 3_600_000

export const isFinal = (action: Action) => action.answers.length > 0
export const succeeded = (action: Action) => action.code === Code.OK

export class Clients {
  readonly users: SimUser[] = []
  readonly admins: SimAdmin[] = []
  readonly actions: Action[] = []
  /** The payments users made on chain for their intents (a double tap may report one again). */
  readonly payments: { user: SimUser; intent: string; signature: string }[] = []

  constructor(
    private readonly world: World,
    private readonly trace: Trace,
  ) {}

  /** Whether the client may still send `action` again (within RETRY_WINDOW_MS of its first try). */
  retryable(action: Action) {
    return this.world.now - action.sentAt < RETRY_WINDOW_MS
  }

  /** The caller string the server files an actor's keys under (lib/route.ts). */
  caller(actor: Actor) {
    if ('user' in actor) return `user:${actor.user.id}`
    if ('admin' in actor) return `admin:${actor.admin.wallet.address}`
    return 'operator'
  }

  private headers(actor: Actor): Record<string, string> {
    if ('user' in actor) return { 'user-token': actor.user.token, 'user-address': actor.user.wallet.address }
    if ('admin' in actor) return { 'admin-token': actor.admin.token }
    return { 'operator-token': this.world.config.operatorToken as string }
  }

  /** A new action of `actor` on `route`; `send` it. */
  action(actor: Actor, name: string, route: RouteDef, body: Record<string, unknown>, counter?: Counter): Action {
    const n = this.actions.length
    const action: Action = {
      n,
      actor,
      route,
      name,
      body,
      key: `sim-${this.world.seed}-${n}`,
      counter: counter && {
        kind: counter,
        owner: 'user' in actor ? actor.user.id : 'admin' in actor ? actor.admin.wallet.address : 'operator',
      },
      answers: [],
      unanswered: 0,
      sentAt: this.world.now,
    }
    this.actions.push(action)
    return action
  }

  /**
   * Sends an action (again), up to three tries within the step while the answer is a 500; 'crashed' when the process
   * died under it. A claim left running by a try that died is taken over only after TAKEOVER_MS: the client's next try
   * comes that much later.
   */
  async send(action: Action): Promise<Answer | 'crashed'> {
    let last: Answer | undefined
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.claimRunning(action)) await this.world.advance(TAKEOVER_MS + 1000)
      const answer = await this.world.call(action.route, action.body, this.headers(action.actor), action.key)
      if (answer === 'crashed') {
        action.unanswered++
        this.trace.event(`#${action.n} ${action.name}: no answer (crash)`)
        return answer
      }
      if (answer.envelope.code === Code.SESSION_INVALID && !('operator' in action.actor)) {
        if (!(await this.signIn(action.actor))) return 'crashed'
        attempt--
        continue
      }
      if (answer.status >= 500) {
        action.unanswered++
        this.trace.event(`#${action.n} ${action.name}: HTTP ${answer.status}`)
        if (this.world.faults.fired.length === 0)
          throw new Violation('no 5xx', `${action.name} answered HTTP ${answer.status} with no fault: ${answer.text}`)
        last = answer
        continue
      }
      this.answered(action, answer)
      return answer
    }
    return last as Answer
  }

  /** A read (no key): its data, or null when it was refused or got no answer. */
  async read(route: RouteDef, body: Record<string, unknown>, actor: Actor): Promise<unknown> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await this.world.call(route, body, this.headers(actor))
      if (answer === 'crashed') return null
      if (answer.status >= 500) {
        if (this.world.faults.fired.length === 0)
          throw new Violation('no 5xx', `${route.path} answered HTTP ${answer.status} with no fault: ${answer.text}`)
        return null
      }
      if (answer.envelope.code === Code.SESSION_INVALID) {
        if (!(await this.signIn(actor))) return null
        continue
      }
      return answer.envelope.code === Code.OK ? answer.envelope.data : null
    }
    return null
  }

  /**
   * Sends `actions` at once (the same action several times: a double tap, whose answers must all be the same bytes).
   * No fault strikes such a step.
   */
  async sendTogether(actions: Action[]) {
    // A session that expired (the clock jumps) is renewed first, so that every copy gets a final answer.
    for (const actor of new Set(actions.map((a) => a.actor)))
      if ('user' in actor) await this.read(api.userWallet, {}, actor)
    const answers = await Promise.all(
      actions.map((action) => this.world.call(action.route, action.body, this.headers(action.actor), action.key)),
    )
    for (const [i, answer] of answers.entries()) {
      const action = actions[i] as Action
      if (answer === 'crashed') throw new Violation('no crash', `${action.name} crashed with no fault`)
      if (answer.status >= 500)
        throw new Violation('no 5xx', `${action.name} answered HTTP ${answer.status}: ${answer.text}`)
      this.answered(action, answer)
    }
  }

  private answered(action: Action, answer: Answer) {
    const first = action.answers[0]
    if (first !== undefined && first !== answer.text)
      throw new Violation(
        'replayed answer is byte-identical',
        `${action.name} with key ${action.key} answered\n  ${first}\nthen\n  ${answer.text}`,
      )
    action.answers.push(answer.text)
    const { code, key } = answer.envelope as { code: number; key: string }
    action.code = code
    this.trace.event(
      `#${action.n} ${action.name}: ${code} ${key}${first === undefined ? '' : ' (replay)'}`,
      answer.text,
    )
  }

  /**
   * Whether the action's key is claimed by a try that is no longer running: it died, or its answer was not stored (a
   * refusal whose storing failed is still answered, so even an answered action may have left its key running). The
   * server waits for such a claim to go stale by the clock, which only the simulator moves.
   */
  private async claimRunning(action: Action) {
    if (action.answers.length === 0 && action.unanswered === 0) return false
    const row = await this.world.engine.observer
      .selectFrom('idempotency_keys')
      .select('state')
      .where('caller', '=', this.caller(action.actor))
      .where('key', '=', action.key)
      .executeTakeFirst()
    return row?.state === 'running'
  }

  /** Signs a user or an operator in (again); false when the process died meanwhile. */
  async signIn(actor: Actor): Promise<boolean> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const ok =
        'user' in actor
          ? await this.userSignIn(actor.user)
          : await this.adminSignIn((actor as { admin: SimAdmin }).admin)
      if (ok !== undefined) return ok
    }
    throw new Violation('sign-in', 'five sign-ins in a row failed')
  }

  /** true: signed in; false: crashed; undefined: try again (a fault answered 500). */
  private async userSignIn(user: SimUser, inviteCode = ''): Promise<boolean | undefined> {
    const nonce = await this.world.call(api.nonce, { address: user.wallet.address }, {})
    if (nonce === 'crashed') return false
    if (nonce.status >= 500) return undefined
    const message = (nonce.envelope.data as { message: string }).message
    const login = await this.world.call(
      api.registerThird,
      {
        type: LOGIN_TYPE,
        address: user.wallet.address,
        sign: user.wallet.sign(message),
        invite_code: inviteCode,
        message,
      },
      {},
    )
    if (login === 'crashed') return false
    if (login.status >= 500) return undefined
    if (login.envelope.code !== Code.OK)
      throw new Violation('sign-in', `user ${user.n} could not sign in: ${login.envelope.msg}`)
    const data = login.envelope.data as LoginData
    user.id = data.id
    user.token = data.token
    return true
  }

  private async adminSignIn(admin: SimAdmin): Promise<boolean | undefined> {
    const nonce = await this.world.call(api.adminNonce, { address: admin.wallet.address }, {})
    if (nonce === 'crashed') return false
    if (nonce.status >= 500) return undefined
    const message = (nonce.envelope.data as { message: string }).message
    const login = await this.world.call(
      api.adminLogin,
      { address: admin.wallet.address, sign: admin.wallet.sign(message), message },
      {},
    )
    if (login === 'crashed') return false
    if (login.status >= 500) return undefined
    if (login.envelope.code !== Code.OK)
      throw new Violation('sign-in', `operator ${admin.n} could not sign in: ${login.envelope.msg}`)
    admin.token = (login.envelope.data as AdminLoginData).token
    return true
  }

  /**
   * A new user: a wallet derived from the seed, SOL and tokens on chain, a sign-up under `parent` (its invite code is its
   * address). Null when the process died meanwhile (the next sign-up tries the same wallet again).
   */
  async signUp(parent: SimUser | undefined): Promise<SimUser | null> {
    const n = this.users.length
    const wallet = new SimWallet(derive(this.world.seed, `user:${n}`))
    const user: SimUser = { n, wallet, id: '', token: '' }
    for (let attempt = 0; attempt < 5; attempt++) {
      const ok = await this.userSignIn(user, parent?.wallet.address ?? '')
      if (ok === false) return null
      if (ok) {
        this.users.push(user)
        await this.world.fund(wallet.address, { USDT: 1_000_000n * 10n ** 6n, PLG: 10_000_000n * 10n ** 9n })
        return user
      }
    }
    throw new Violation('sign-in', 'five sign-ups in a row failed')
  }

  /**
   * The root user (registered by the server's seed), the operators (allow-listed as the console does it), and a few
   * users in a referral line, each topped up through a payment intent paid on chain: the first steps have money to move.
   */
  async setUp() {
    const root: SimUser = { n: 0, wallet: this.world.root, id: '', token: '' }
    if (!(await this.userSignIn(root))) throw new Error('the root could not sign in')
    this.users.push(root)
    await this.world.fund(root.wallet.address, { USDT: 1_000_000n * 10n ** 6n, PLG: 10_000_000n * 10n ** 9n })
    const roles = ['admin', 'admin', 'operator'] as const
    for (const [n, role] of roles.entries()) {
      const wallet = new SimWallet(derive(this.world.seed, `admin:${n}`))
      await this.world.engine.observer
        .insertInto('admins')
        .values({ address: wallet.address, role, source: 'console', added_by: 'simulator' })
        .execute()
      const admin: SimAdmin = { n, wallet, role, token: '' }
      if (!(await this.adminSignIn(admin))) throw new Error('an operator could not sign in')
      this.admins.push(admin)
    }
    for (let n = 1; n <= 3; n++) {
      const user = (await this.signUp(this.users[n - 1])) as SimUser
      for (const [coin, amount] of [
        ['USDT', 50_000n * 10n ** 6n],
        ['PLG', 500_000n * 10n ** 9n],
      ] as const) {
        const created = await this.send(
          this.action(
            { user },
            'intentCreate',
            api.intentCreate,
            { purpose: 'recharge', coin, amount: amount.toString() },
            'intents',
          ),
        )
        const intent = (created as Answer).envelope.data as PaymentIntent
        const signature = this.world.pay(user.wallet, {
          owner: intent.recipient,
          mint: intent.mint,
          amount,
          reference: intent.reference,
        })
        await this.send(this.action({ user }, 'intentSubmit', api.intentSubmit, { id: intent.id, signature }))
      }
    }
  }
}
