/**
 * A dialog's save button keeps the keyboard while its call runs (ui/BusyButton.tsx): Blueprint's
 * loading state disabled it under the focus, which fell to the page. The call is held by the test
 * so the busy state can be looked at: the focus is on the button all along; a refusal leaves it
 * there, a success closes the dialog and gives it back to what opened it (ui/Dialog.tsx). A person's
 * picture buttons stay busy the same way; an upload or a delete swaps the button for another, and
 * the focus follows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import {
  TOKEN_COOKIE,
  adminPage,
  api,
  choosePicture,
  cookie,
  focusedTestId,
  hold,
  launch,
  runFromPalette,
  toastWith,
  whileHeld,
} from './browser.ts'

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

const focused = () => focusedTestId(page)

describe('a busy dialog keeps the keyboard', () => {
  it('a new career: Enter on Save keeps the focus on it while saving, then the focus goes back to the New button', async () => {
    await page.goto('/management/career')
    await page.getByTestId('career-page').waitFor()
    await page.getByTestId('cmd-admin.newCareer').focus()
    await page.keyboard.press('Enter')
    await expect.poll(focused).toBe('career-name')
    await page.keyboard.type(`Pharmacist ${p}`)

    const call = await hold(page, '**/api/admin/careers', 'POST')
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

    const call = await hold(page, '**/api/admin/user/changePwd', 'POST')
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

describe('a busy picture button keeps the keyboard', () => {
  beforeAll(async () => {
    const token = (await cookie(page.context(), TOKEN_COOKIE)) ?? ''
    const made = await api<{ userId: number }>('POST', '/api/admin/users', { token, body: { name: `Pictured ${p}`, username: `pic${p}` } })
    if (made.body.code !== 0) throw new Error(`user: ${made.status} ${made.body.msg}`)
    await page.goto(`/management/user?id=${made.body.data!.userId}`)
    // The dialog puts the focus on the name once open; a focus set before would be taken back.
    await page.waitForFunction(() => document.activeElement?.id === 'user-name')
  })

  it("a person's picture: the focus stays on Upload while it uploads, then goes to the new picture", async () => {
    await page.getByTestId('picture-upload').focus()
    await whileHeld(page, '**/api/admin/picture/upload**', 'POST', async () => {
      await choosePicture(page, 'me.png')
      await page.locator('.user-picture-progress').waitFor()
      expect(await focused()).toBe('picture-upload')
    })
    await page.getByTestId('picture-delete').waitFor()
    await expect.poll(focused).toBe('picture-view')
    await page.keyboard.press('Tab')
    expect(await focused()).toBe('picture-delete')
  })

  it('the focus stays on Delete while it deletes, a second Enter ignored, then goes to Upload', async () => {
    await page.getByTestId('picture-delete').focus()
    const calls = await whileHeld(page, '**/api/admin/picture/delete', 'POST', async () => {
      await page.keyboard.press('Enter')
      await page.locator('[data-testid="picture-delete"].bp6-loading').waitFor()
      expect(await focused()).toBe('picture-delete')
      await page.keyboard.press('Enter')
    })
    await page.getByTestId('picture-upload').waitFor()
    await expect.poll(focused).toBe('picture-upload')
    expect(calls).toBe(1)
  })
})
