/**
 * What the tests of the server, the web app and the journeys share (test code only: no app imports it): the same
 * amounts in base units, the same hostile input on both sides of a check.
 */
export * from './amounts.ts'
export * from './market.ts'
export * from './rich-text.ts'
export * from './wallet.ts'
