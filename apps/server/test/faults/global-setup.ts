// Once per run of the faults tier: the server compiled once for its many process starts (fixtures/server-bundle.ts).
import { buildServerBundle } from '../fixtures/server-bundle.ts'

export default async function setup() {
  const bundle = await buildServerBundle()
  return () => bundle.remove()
}
