/**
 * A dialog's save button keeps the keyboard while its call runs (ui/BusyButton.tsx): Blueprint's
 * loading state disabled it under the focus, which fell to the page. The call is held by the test
 * so the busy state can be looked at: the focus is on the button all along; a refusal leaves it
 * there, a success closes the dialog and gives it back to what opened it (ui/Dialog.tsx).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { adminPage, launch, runFromPalette, toastWith } from './browser.ts'

let browser: Browser
let page: Page
const p = Date.now().toString(36)

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
})
afterAll(async () => {
  await browser?.close()
})

/** The data-testid of the element holding the focus; 'body' while the focus is on the page itself. */
const focused = () =>
  page.evaluate(() => (document.activeElement === document.body ? 'body' : document.activeElement?.getAttribute('data-testid')))

/** Holds the page's `method` calls to `url` until released; counts them. */
async function hold(url: string, method: string) {
  let release = () => {}
  const gate = new Promise<void>((r) => (release = r))
  let calls = 0
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback()
    calls++
    await gate
    await route.fallback()
  })
  return {
    calls: () => calls,
    release: async () => {
      release()
      await page.unroute(url)
    },
  }
}

describe('a busy dialog keeps the keyboard', () => {
  it('a new career: Enter on Save keeps the focus on it while saving, then the focus goes back to the New button', async () => {
    await page.goto('/management/career')
    await page.getByTestId('career-page').waitFor()
    await page.getByTestId('cmd-admin.newCareer').focus()
    await page.keyboard.press('Enter')
    await expect.poll(focused).toBe('career-name')
    await page.keyboard.type(`Pharmacist ${p}`)

    const call = await hold('**/api/admin/careers', 'POST')
    await page.getByTestId('career-save').focus()
    await page.keyboard.press('Enter')
    await page.locator('[data-testid="career-save"].bp6-loading').waitFor()
    expect(await focused()).toBe('career-save')
    // Busy, the button takes no second press: one career, not two.
    await page.keyboard.press('Enter')
    expect(await focused()).toBe('career-save')
    await expect.poll(call.calls).toBe(1)

    await call.release()
    await page.locator('.career-dialog').waitFor({ state: 'detached' })
    await page.locator('[data-testid="career-row"]', { hasText: `Pharmacist ${p}` }).waitFor()
    await expect.poll(focused).toBe('cmd-admin.newCareer')
    expect(call.calls()).toBe(1)
  })

  it('a refused password change: the focus stays on Confirm while the call runs and after the refusal', async () => {
    await runFromPalette(page, 'change password', 'account.changePassword')
    await page.getByTestId('change-password-form').waitFor()
    await page.getByTestId('pwd-oldPassword').fill('not the password 1')
    await page.getByTestId('pwd-newPassword').fill('abc12345')
    await page.getByTestId('pwd-confirmPassword').fill('abc12345')

    const call = await hold('**/api/admin/user/changePwd', 'POST')
    await page.getByTestId('pwd-submit').focus()
    await page.keyboard.press('Enter')
    await page.locator('[data-testid="pwd-submit"].bp6-loading').waitFor()
    expect(await focused()).toBe('pwd-submit')

    await call.release()
    await page.locator('.bp6-toast.bp6-intent-danger').waitFor()
    await page.locator('[data-testid="pwd-submit"]:not(.bp6-loading)').waitFor()
    await expect.poll(focused).toBe('pwd-submit')
    expect(await toastWith(page, 'success').count()).toBe(0)
    await page.keyboard.press('Escape')
    await page.getByTestId('change-password-form').waitFor({ state: 'detached' })
  })
})
