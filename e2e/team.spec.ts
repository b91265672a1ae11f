import fs from 'node:fs'
import { api } from '@solpledge/contract'
import { PLG } from '@solpledge/test-fixtures'
import { callAs, expect, register, snap, takeToasts, test, useWallets, Wallet } from './fixtures.ts'
import { topUp } from './top-up.ts'

type Session = Record<string, string>

async function stake(wallet: Wallet, session: Session, plg: bigint) {
  await topUp(wallet, session, 'PLG', plg * PLG)
  const res = await callAs(session, api.pledgeStake.path, { amount: (plg * PLG).toString(), days: 30 })
  if (res.code !== 1) throw new Error(`stake: ${res.msg}`)
}

test.describe('team, ranking and home figures', () => {
  // A three-level team: a → (b → d), c. Stakes at 0.5 USDT per PLG, 100% power: a 200, b 150, c 100, d 100 USDT.
  const a = new Wallet()
  const b = new Wallet()
  const c = new Wallet()
  const d = new Wallet()
  let sessionA: Session

  test.beforeAll(async () => {
    test.setTimeout(180_000)
    sessionA = await register(a)
    const sessionB = await register(b, a.address)
    const sessionC = await register(c, a.address)
    const sessionD = await register(d, b.address)
    await stake(a, sessionA, 400n)
    await stake(b, sessionB, 300n)
    await stake(c, sessionC, 200n)
    await stake(d, sessionD, 200n)
  })

  test('the team page shows the counts and performances of the team, copies and shares the invite, with and without a clipboard', async ({
    page,
    context,
  }, testInfo) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await useWallets(page, [a])
    await page.goto('/team')
    await expect(page.getByTestId('page-title')).toHaveText('Team')
    await expect(page.getByTestId('team-count')).toHaveText('3')
    await expect(page.getByTestId('direct-count')).toHaveText('2')
    await expect(page.getByTestId('team-performance')).toHaveText('350 USDT')
    await expect(page.getByTestId('personal-performance')).toHaveText('200 USDT')
    await expect(page.getByTestId('push-performance')).toHaveText('250 USDT')
    await expect(page.getByTestId('team-power')).toHaveText('350')
    await expect(page.getByTestId('personal-power')).toHaveText('200')
    // Legs: b 150 + 100 = 250, c 100: the small market is 350 - 250.
    await expect(page.getByTestId('small-market-fuel')).toHaveText('100')
    await expect(page.getByTestId('team-member-address')).toHaveText([c.address, b.address])
    await expect(page.getByTestId('team-member-size')).toHaveText(['Team: 0 members', 'Team: 1 member'])
    await expect(page.getByTestId('team-member-performance').nth(1)).toHaveText('Performance 150 USDT')
    await snap(page, testInfo, 'team')

    await page.getByTestId('team-member').nth(1).click()
    const dialog = page.getByTestId('team-member-dialog')
    await expect(dialog).toContainText(b.address)
    await expect(dialog.getByTestId('member-performance')).toHaveText('150 USDT')
    await snap(page, testInfo, 'member detail')
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)

    await expect(page.getByTestId('invite-link')).toHaveText(`${new URL(page.url()).origin}/?code=${a.address}`)
    await page.getByTestId('copy-invite').click()
    await expect(page.getByTestId('toast').filter({ hasText: 'Copy Successful' })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${new URL(page.url()).origin}/?code=${a.address}`,
    )

    // The link as a QR code; without the Web Share API (as on a desktop browser), Share saves the poster.
    await expect(page.getByTestId('invite-qr')).toBeVisible()
    await page.evaluate(() => {
      Reflect.deleteProperty(Navigator.prototype, 'share')
      Reflect.deleteProperty(Navigator.prototype, 'canShare')
    })
    await snap(page, testInfo, 'invite QR')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('share-invite').click()])
    expect(download.suggestedFilename()).toBe('solpledge-invite.png')
    const saved = await fs.promises.readFile((await download.path()) as string)
    expect([...saved.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10])
    // 720 × 1080: the PNG header's width and height.
    expect([saved.readUInt32BE(16), saved.readUInt32BE(20)]).toEqual([720, 1080])
    await expect(page.getByTestId('toast').filter({ hasText: 'Invite poster saved' })).toBeVisible()

    // Without a clipboard, copying prompts with the link and the shortcut; a share sheet that takes files, as a
    // phone's, gets the poster (it keeps what it was given for the test to read).
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new Error('denied')) },
      })
      const shared: ShareData[] = []
      Object.assign(window, { shared })
      Object.defineProperty(navigator, 'canShare', { value: (data: ShareData) => Boolean(data.files?.length) })
      Object.defineProperty(navigator, 'share', {
        value: async (data: ShareData) => {
          shared.push(data)
        },
      })
    })
    await takeToasts(page)
    // The prompt blocks the page until answered: read it and dismiss it as it opens.
    const prompts: { type: string; message: string; value: string }[] = []
    page.on('dialog', async (dialog) => {
      prompts.push({ type: dialog.type(), message: dialog.message(), value: dialog.defaultValue() })
      await dialog.dismiss()
    })
    await page.getByTestId('copy-invite').click()
    await expect.poll(() => prompts.length).toBe(1)
    expect(prompts[0]?.type).toBe('prompt')
    expect(prompts[0]?.message).toMatch(/Ctrl\+C|⌘\+C/)
    expect(prompts[0]?.value).toContain(`/?code=${a.address}`)
    await expect(page.getByTestId('toast').filter({ hasText: 'Copy Failed, Please Copy Manually' })).toBeVisible()

    await page.getByTestId('share-invite').click()
    const link = `${new URL(page.url()).origin}/?code=${a.address}`
    await expect.poll(() => page.evaluate(() => (window as unknown as { shared: unknown[] }).shared.length)).toBe(1)
    // The poster: a 720 × 1080 PNG with the QR code drawn dark on white in its middle.
    const shared = await page.evaluate(async () => {
      const [data] = (window as unknown as { shared: ShareData[] }).shared
      const file = data?.files?.[0] as File
      const image = await createImageBitmap(file)
      const canvas = new OffscreenCanvas(image.width, image.height)
      const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D
      context.drawImage(image, 0, 0)
      const pixels = context.getImageData(140, 290, 440, 440).data
      let dark = 0
      let light = 0
      for (let i = 0; i < pixels.length; i += 4) {
        if ((pixels[i] ?? 0) < 40) dark++
        else if ((pixels[i] ?? 0) > 215) light++
      }
      return {
        title: data?.title,
        url: data?.url,
        name: file.name,
        type: file.type,
        size: [image.width, image.height],
        dark,
        light,
      }
    })
    expect(shared).toMatchObject({
      title: 'Join me on solpledge',
      url: link,
      name: 'solpledge-invite.png',
      type: 'image/png',
      size: [720, 1080],
    })
    expect(shared.dark).toBeGreaterThan(440 * 440 * 0.2)
    expect(shared.light).toBeGreaterThan(440 * 440 * 0.2)
    // Shared, not saved.
    expect((await takeToasts(page)).filter((text) => text.includes('Invite poster saved'))).toEqual([])
    await snap(page, testInfo, 'shared')
  })

  test('the home screen shows the price, the pair and the power figures; the ranking, reached from Home and from Team, agrees with Home and says when it was updated', async ({
    page,
  }, testInfo) => {
    // No waiting for the snapshot job: a read finds the new power recorded since the last snapshot and recomputes.
    await useWallets(page, [a])
    await page.goto('/')
    await expect(page.getByTestId('home-pair')).toHaveText('PLG/USDT')
    await expect(page.getByTestId('home-price')).toHaveText('0.5 USDT')
    await expect(page.getByTestId('home-personalPower')).toHaveText('200')
    await expect(page.getByTestId('home-teamPower')).toHaveText('350')
    await expect(page.getByTestId('home-directNew')).toHaveText('250')
    await expect(page.getByTestId('home-recommended')).toHaveText('350')
    await snap(page, testInfo, 'home figures')
    await page.getByTestId('home-link-rank').click()
    await expect(page).toHaveURL(/\/rank$/)
    await expect(page.getByTestId('page-title')).toHaveText('Ranking')
    // A screen below Team: the Team tab stays highlighted, and a back control leads to where it was opened from.
    await expect(page.getByTestId('nav-team')).toHaveAttribute('aria-current', 'true')
    await expect(page.getByTestId('nav-home')).not.toHaveAttribute('aria-current')
    await expect(page.getByTestId('rank-board-direct')).toBeVisible()
    await expect(page.getByTestId('rank-mine-power')).toHaveText('250')
    await expect(page.getByTestId('rank-mine-rank')).toHaveText(/^#\d+$/)
    await expect(page.getByTestId('rank-row').first()).toBeVisible()
    await expect(page.getByTestId('rank-updated-at')).toContainText('updated')
    await expect(page.getByTestId('rank-next-update')).toContainText('next update')
    await snap(page, testInfo, 'direct tab')
    await page.getByTestId('rank-tab-team').click()
    await expect(page.getByTestId('rank-board-team')).toBeVisible()
    await expect(page.getByTestId('rank-mine-power')).toHaveText('350')
    await expect(page.getByTestId('rank-row').first()).toBeVisible()
    await snap(page, testInfo, 'team tab')
    await page.getByTestId('back').click()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByTestId('nav-home')).toHaveAttribute('aria-current', 'page')
    await page.goto('/team')
    await page.getByTestId('team-rank-link').click()
    await expect(page).toHaveURL(/\/rank$/)
    await expect(page.getByTestId('rank-board-direct')).toBeVisible()
    await page.getByTestId('back').click()
    await expect(page).toHaveURL(/\/team$/)
  })
})
