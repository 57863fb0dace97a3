/**
 * Issue 3 item 9, the session as a user meets it: the guard's redirects, logging out, and a
 * session that ended on the server (re-login dialog, or back to sign-in on a reload).
 * One browser context in Chinese, used in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPassword, api, cookie, fromUserMenu, launch, newPage, signIn, toastWith } from './browser.ts'

let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  browser = await launch()
  ;({ context, page } = await newPage(browser, { lang: 'zh' }))
})
afterAll(async () => {
  await browser?.close()
})

async function token(): Promise<string> {
  const value = await cookie(context, TOKEN_COOKIE)
  if (!value) throw new Error('no session cookie')
  return value
}

/** Ends the session on the server, as an expiry or a sign-out elsewhere would; the page does not know. */
async function endSessionOnServer(value: string): Promise<void> {
  const res = await api('POST', '/api/auth/jwt/logout', { token: value, query: { token: value } })
  expect(res.body.code).toBe(0)
}

describe('the session in Chromium', () => {
  it('without a session sends every screen to /login', async () => {
    await page.goto('/patient/index')
    await page.waitForURL('**/login')
    await page.locator('#login-username').waitFor()
  })

  it('sends /login to / (the multi-center project list) when signed in', async () => {
    await signIn(page, 'admin', adminPassword())
    await page.waitForURL('**/project/multi-list')
    await page.goto('/login')
    await page.waitForURL('**/project/multi-list')
    await page.getByTestId('shell').waitFor()
    expect(await page.locator('#login-username').count()).toBe(0)
  })

  it('sends an unknown path to /404', async () => {
    await page.goto('/no/such/page')
    await page.waitForURL('**/404')
    await page.getByTestId('page-404').getByText('抱歉，您访问的页面不存在').waitFor()
    expect(await page.getByTestId('shell').count()).toBe(0)
  })

  it('logs out through the user menu: back to /login, the cookie gone, the old token refused', async () => {
    await page.goto('/dashboard')
    await page.getByTestId('shell').waitFor()
    const old = await token()
    await fromUserMenu(page, 'account.logout')
    await page.waitForURL('**/login')
    await page.locator('#login-username').waitFor()
    expect(await cookie(context, TOKEN_COOKIE)).toBeUndefined()
    const info = await api('GET', '/api/admin/user/front/info', { token: old, query: { token: old } })
    expect(info.status).toBe(401)
    expect(info.body.code).toBe(50012)
    // And the guard keeps the screens closed.
    await page.goto('/project/multi-list')
    await page.waitForURL('**/login')
  })

  it('shows the re-login dialog when a call meets an ended session; 取消 stays, 重新登录 goes to /login', async () => {
    await signIn(page, 'admin', adminPassword())
    await page.waitForURL('**/project/multi-list')
    // The landing screen's own calls finish first: the dead token must meet the call this test makes.
    await page.waitForLoadState('networkidle')
    await endSessionOnServer(await token())

    // A call from the page with the dead token: a (valid) password change.
    await fromUserMenu(page, 'account.changePassword')
    await page.getByTestId('pwd-oldPassword').fill(adminPassword())
    await page.getByTestId('pwd-newPassword').fill('Never12345')
    await page.getByTestId('pwd-confirmPassword').fill('Never12345')
    await page.getByTestId('pwd-submit').click()

    const dialog = page.locator('.relogin-dialog')
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('确定登出')
    expect(await dialog.textContent()).toContain('你已被登出，可以取消继续留在该页面，或者重新登录')
    // HTTP 401: no error toast.
    expect(await page.locator('.bp6-toast').count()).toBe(0)

    await dialog.getByRole('button', { name: '取消' }).click()
    await dialog.waitFor({ state: 'detached' })
    expect(new URL(page.url()).pathname).toBe('/project/multi-list')
    await page.getByTestId('change-password-form').waitFor()
    expect(await cookie(context, TOKEN_COOKIE)).toBeDefined()

    await page.getByTestId('pwd-submit').click()
    await dialog.waitFor()
    await dialog.getByRole('button', { name: '重新登录' }).click()
    await page.waitForURL('**/login')
    await page.locator('#login-username').waitFor()
    expect(await cookie(context, TOKEN_COOKIE)).toBeUndefined()
  })

  it('on a reload with an ended session clears it, shows the server message and goes to /login', async () => {
    await signIn(page, 'admin', adminPassword())
    await page.waitForURL('**/project/multi-list')
    // The landing screen's own calls finish first: the dead token must meet the call this test makes.
    await page.waitForLoadState('networkidle')
    await endSessionOnServer(await token())
    await page.reload()
    await page.waitForURL('**/login')
    await toastWith(page, '你已在别处登出或令牌已失效，请重新登录').waitFor()
    expect(await cookie(context, TOKEN_COOKIE)).toBeUndefined()
  })
})
