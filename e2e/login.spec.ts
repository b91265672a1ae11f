import {
  expect,
  expectLoggedIn,
  register,
  rootAddress,
  signIn,
  snap,
  storage,
  test,
  useWallets,
  Wallet,
} from './fixtures.ts'

test.describe('wallet login', () => {
  test('an unknown invite code shows the error toast and stays unbound; from /?code=<root> the new user binds and is logged in', async ({
    page,
  }, testInfo) => {
    const wallet = new Wallet()
    const stranger = new Wallet()
    await useWallets(page, [wallet])
    await page.goto(`/?code=${stranger.address}`)
    const dialog = page.getByTestId('bind-dialog')
    await page.getByTestId('bind-button').click()
    const refused = page
      .getByTestId('toast')
      .filter({ hasText: 'The invitation code does not belong to a registered user' })
    await expect(refused).toBeVisible()
    await snap(page, testInfo, 'error toast')
    await expect(dialog).toBeVisible()
    const unbound = await storage(page)
    expect(unbound.token).toBeNull()
    expect(unbound.userinfo).toBeNull()
    // Toasts last two seconds.
    await expect(refused).toHaveCount(0, { timeout: 4000 })

    // The link of a registered user: the code is filled in, and the dialog cannot be closed without binding.
    await page.goto(`/?code=${rootAddress()}`)
    await expect(dialog).toBeVisible()
    await expect(page.getByTestId('bind-input')).toHaveValue(rootAddress())
    await expect(dialog.getByRole('button', { name: /close/i })).toHaveCount(0)
    await snap(page, testInfo, 'bind dialog')
    await page.getByTestId('bind-button').click()
    await expect(page.getByTestId('toast').filter({ hasText: 'Login successful' })).toBeVisible()
    await expect(dialog).toHaveCount(0)
    await expectLoggedIn(page, wallet)
    const info = JSON.parse((await storage(page)).userinfo ?? '{}')
    expect(info.parent_address).toBe(rootAddress())
    await snap(page, testInfo, 'logged in')
  })

  test('a returning user logs in without the dialog; disconnect clears userinfo, root and token', async ({
    page,
  }, testInfo) => {
    await signIn(page)
    await expect(page.getByTestId('bind-dialog')).toHaveCount(0)
    await snap(page, testInfo, 'logged in')
    await page.getByTestId('disconnect').click()
    await expect(page.getByTestId('user-address')).toHaveCount(0)
    await expect(page.getByTestId('connect-wallet')).toBeVisible()
    const stored = await storage(page)
    expect(stored).toMatchObject({ userinfo: null, root: null, token: null })
    await snap(page, testInfo, 'disconnected')
  })

  test('switching account lands on / and logs in as the other account', async ({ page }, testInfo) => {
    const [first, second] = [new Wallet(), new Wallet()]
    await register(first)
    await register(second)
    await useWallets(page, [first, second])
    await page.goto('/team')
    await expect(page.getByTestId('page-title')).toHaveText('Team')
    // The screen paints before the wallet layer has loaded and signed in: wait for the login.
    await expect.poll(async () => JSON.parse((await storage(page)).userinfo ?? '{}').address).toBe(first.address)
    await expect(page.getByTestId('loading-overlay')).toHaveCount(0)
    await page.getByTestId('demo-wallet-toggle').click()
    await snap(page, testInfo, 'demo wallet menu')
    await page.getByTestId('demo-wallet-account-1').click()
    await expect(page).toHaveURL(/\/$/)
    await expectLoggedIn(page, second)
    await snap(page, testInfo, 'second account')
  })
})
