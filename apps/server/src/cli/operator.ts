// What the operator CLIs (npm run settle, npm run snapshot-liabilities) share: the operator token and the call.
import fs from 'node:fs'
import path from 'node:path'
import { API_BASE, type Envelope } from '@solpledge/contract'

/** OPERATOR_TOKEN, or the one the server keeps in DATA_DIR/keys/operator-token (DATA_DIR defaults to ./data). */
export function operatorToken(): string {
  if (process.env.OPERATOR_TOKEN) return process.env.OPERATOR_TOKEN
  const file = path.join(path.resolve(process.env.DATA_DIR || 'data'), 'keys', 'operator-token')
  try {
    return fs.readFileSync(file, 'utf8').trim()
  } catch {
    console.error(`no operator token: set OPERATOR_TOKEN or start the server once so that ${file} exists`)
    process.exit(2)
  }
}

/** The server's URL: --url, SETTLE_URL, or this host's PORT. */
export const defaultUrl = () => process.env.SETTLE_URL ?? `http://127.0.0.1:${process.env.PORT || 3000}`

/** POSTs an operator route; exits 2 when the server cannot be reached and 1 when it refuses. */
export async function operatorCall<T>(url: string, route: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url + API_BASE + route, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'accept-language': 'en',
      'operator-token': operatorToken(),
      ...headers,
    },
    body: JSON.stringify(body),
  }).catch((error: Error) => {
    console.error(`cannot reach the server at ${url}: ${error.message}`)
    process.exit(2)
  })
  const envelope = (await response.json()) as Envelope
  if (envelope.code !== 1) {
    console.error(`refused (code ${envelope.code}): ${envelope.msg}`)
    process.exit(1)
  }
  return envelope.data as T
}
