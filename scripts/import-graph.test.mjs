// The dependency graph in docs/architecture.md is what the tree gives now: drawn again from a cruise of the repository
// (dependency-cruiser's cache makes it quick after `npm run lint`) and compared with the checked-in text.
import { expect, it } from 'vitest'
import { cruiseTree } from './check-imports.mjs'
import { checkedIn, graphText } from './import-graph.mjs'

it('docs/architecture.md shows the dependency graph of the tree as it is (npm run docs:graph redraws it)', async () => {
  const drawn = graphText(await cruiseTree(undefined, { cache: true }))
  expect(drawn).toContain('admin --> liabilities')
  expect(checkedIn(), 'docs/architecture.md is out of date: run npm run docs:graph').toBe(drawn)
})
