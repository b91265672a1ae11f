// Which route moved money: defineRoute (./route.ts) runs each handler inside `routeCalls`' stores with the route's
// contract entry, and the ledger (modules/ledger) publishes every write on `ledgerWrites`. The API tests bind a store and
// subscribe (apps/server/test/helpers.ts) so that a route that writes the ledger without being flagged idempotent in the
// contract fails its test file. The server binds and subscribes nothing: then each costs one property read.
import diagnostics_channel from 'node:diagnostics_channel'
import type { RouteDef } from '@solpledge/contract'

export const routeCalls = diagnostics_channel.channel('solpledge:route-call')
export const ledgerWrites = diagnostics_channel.channel('solpledge:ledger-write')

/** Runs a route's handler where a bound store sees its contract entry. */
export const inRoute = <T>(def: RouteDef, work: () => Promise<T>): Promise<T> =>
  routeCalls.hasSubscribers ? routeCalls.runStores(def, work) : work()

/** Tells the probe the ledger is being written (`what`: the function). */
export const noteLedgerWrite = (what: string) => {
  if (ledgerWrites.hasSubscribers) ledgerWrites.publish(what)
}
