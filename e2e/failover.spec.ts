import { PLG } from '@solpledge/test-fixtures'
import type { Instance } from '../apps/server/test/fixtures/instances.ts'
import {
  type E2eServer,
  expect,
  liveFrames,
  newUser,
  register,
  secondPhone,
  snap,
  submitReviewed,
  test,
  useWallets,
  Wallet,
} from './fixtures.ts'
import { topUp } from './top-up.ts'

// Two instances of the server on one PostgreSQL behind a round-robin proxy, serving the web app on a local chain of
// their own (e2e/server.ts startInstances): what a phone sees when the instance it is connected to dies.
test.use({ ownServer: 'instances' })

/** The instance whose live channel has the page's connection (each counts its own: solpledge_live_connections). */
async function servingInstance(server: E2eServer): Promise<Instance> {
  const instances = server.instances ?? []
  const connections = async (port: number) => {
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
    const lines = metrics.matchAll(/^solpledge_live_connections\{[^}]*\} (\d+)$/gm)
    return [...lines].reduce((sum, line) => sum + Number(line[1]), 0)
  }
  let serving: Instance | undefined
  await expect
    .poll(async () => {
      const counts = await Promise.all(instances.map(({ metricsPort }) => connections(metricsPort)))
      serving = instances[counts.indexOf(1)]?.instance
      return [...counts].sort()
    })
    .toEqual([0, 1])
  return serving as Instance
}

test('the instance serving a phone is killed: the phone reconnects to the other and misses nothing', async ({
  page,
  browser,
  server,
}, testInfo) => {
  test.setTimeout(150_000)
  const sellerWallet = new Wallet()
  await topUp(sellerWallet, await register(sellerWallet), 'PLG', 10n * PLG)
  const ask = (price: string) => page.locator(`[data-testid="book-ask"][data-price="${price}"]`)

  // B watches the book.
  const frames = liveFrames(page)
  let loads = 0
  page.on('load', () => loads++)
  await newUser(page)
  await page.goto('/quick-trade/buy')
  await expect(page.getByTestId('order-form')).toHaveAttribute('data-side', 'buy')
  await expect.poll(() => frames.some((f) => f.type === 'subscribed' && f.topic === 'user')).toBe(true)
  const serving = await servingInstance(server)

  // A sells from the other phone (its own connection may be on either instance).
  const seller = await secondPhone(browser, testInfo)
  await useWallets(seller, [sellerWallet])
  await seller.goto('/quick-trade/sell')
  await expect(seller.getByTestId('order-available')).toHaveText('Available: 10 PLG')
  const sell = async (price: string, placed: number) => {
    await seller.getByTestId('order-price-input').fill(price)
    await seller.getByTestId('order-amount-input').fill('1')
    await submitReviewed(seller.getByTestId('order-submit'))
    await expect(seller.getByTestId('order-row')).toHaveCount(placed)
  }
  await sell('0.9', 1)
  await expect(ask('900000')).toBeVisible({ timeout: 2_000 })

  await serving.kill()
  // Placed while B has no connection: it must come with the events B missed.
  await sell('0.91', 2)
  await expect(ask('910000')).toBeVisible({ timeout: 45_000 })
  await sell('0.92', 3)
  await expect(ask('920000')).toBeVisible()
  await expect(page.getByTestId('live-reconnecting')).toBeHidden()
  await snap(page, testInfo, 'book after the failover')
  await seller.context().close()

  expect(loads, 'the page was never reloaded').toBe(1)
  // Every topic went on from the number it had applied: resumed on the other instance, its numbers without a gap.
  for (const topic of ['market', 'user']) {
    const ofTopic = frames.filter((f) => f.topic === topic)
    const subscribed = ofTopic.filter((f) => f.type === 'subscribed')
    expect(subscribed.length, topic).toBeGreaterThanOrEqual(2)
    expect(
      subscribed.slice(1).every((f) => f.resumed),
      topic,
    ).toBe(true)
    const seqs = ofTopic.filter((f) => f.type === 'event').map((f) => f.seq as number)
    const from = (subscribed[0]?.seq as number) + 1
    expect(seqs, topic).toEqual(seqs.map((_, i) => from + i))
  }
})
