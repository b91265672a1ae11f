/**
 * The contract as the web app's API client needs it, without any schema runtime (the first screen must not carry
 * TypeBox): each route's path and flags, typed with its body and data; the plain constants; languages; amounts.
 * Servers and tests use the main entry with the schemas.
 */
import type { Static } from 'typebox'
import type { AppApi, RouteDef } from './api.ts'
import { routeTable } from './route-table.ts'

// Types only: the schemas behind them stay out of the client's code.
export type * from './admin.ts'
export * from './amount.ts'
export type * from './api.ts'
export type * from './business-config.ts'
export * from './constants.ts'
export * from './economics.ts'
export * from './envelope.ts'
export * from './i18n.ts'
export * from './ids.ts'
export type * from './live.ts'
export * from './live-protocol.ts'
export type { Catalogue, MessageKey } from './messages/en.ts'
export * from './number-format.ts'
export * from './returns.ts'
export * from './rich-text.ts'
export type * from './system.ts'

/** What a client sends a route with. */
export type RouteMeta = Pick<RouteDef, 'path' | 'auth' | 'operator' | 'admin' | 'multipart' | 'idempotent'>

/** A route's metadata; its schemas exist for the type checker only (never at run time). */
export type ClientRoute<R extends RouteDef = RouteDef> = Pick<R, keyof RouteMeta> & { readonly schemas?: R }
export type BodyOf<R extends ClientRoute> = Static<NonNullable<R['schemas']>['body']>
export type DataOf<R extends ClientRoute> = Static<NonNullable<R['schemas']>['data']>

export type ClientApi = { readonly [K in keyof AppApi]: ClientRoute<AppApi[K]> }

/**
 * Every route of the users' app by name, as the domain files define them, without their schemas. The operator
 * console's routes are in their own entry (admin-client.ts), so the users' bundle does not carry them.
 */
export const api: ClientApi = routeTable
