/**
 * What the tests of the server, the web app and the journeys share (test code only: no app imports it): the same
 * hostile input on both sides of a check, the same amounts in base units.
 */
export * from './rich-text.ts'
