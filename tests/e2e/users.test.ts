/**
 * Issue 8 in Chromium: the administrator opens the user screen, creates a person with the
 * data-entry role from the keyboard and the mouse, and the one-time password dialog shows a
 * password once. That person signs in, must change the password before anything else, then sees
 * only the menu entries the role grants, and a direct link to a screen not granted shows /401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { adminPage, launch, newPage, toastWith } from './browser.ts'

let browser: Browser
let page: Page
let oneTimePassword = ''
const username = `e2e_${Date.now().toString(36)}`

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
})
afterAll(async () => {
  await browser?.close()
})

describe('the user screen in Chromium', () => {
  it('creates a data-entry user and shows the one-time password once', async () => {
    await page.goto('/management/user')
    await page.getByTestId('user-list').waitFor()
    await page.getByTestId('user-create').getByRole('button').click()
    await page.getByTestId('user-dialog').waitFor()

    // The name has the focus; the username is the next field.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('user-name')
    await page.keyboard.type('E2E 数据录入')
    await page.keyboard.press('Tab')
    await page.keyboard.type(username)

    // A bad mobile number is refused before anything is sent.
    await page.getByTestId('user-mobile').fill('12345')
    await page.getByTestId('user-save').click()
    await page.getByText('Incorrect phone number').waitFor()
    await page.getByTestId('user-mobile').fill('13800138000')

    await page.getByTestId('role-picker').waitFor()
    await page.getByTestId('role-dataEntry').check({ force: true })
    await page.getByTestId('user-save').click()

    await page.getByTestId('one-time-password-dialog').waitFor()
    const password = await page.getByTestId('one-time-password').inputValue()
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/)
    oneTimePassword = password
    await toastWith(page, 'Save success').waitFor()
    await page.getByTestId('one-time-password-done').click()
    await page.getByTestId('one-time-password-dialog').waitFor({ state: 'detached' })
    // The user dialog handed over to this one and is gone: the focus goes back to "new user".
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid="user-create"]') !== null)).toBe(true)

    // The list shows the new person with the role.
    await page.getByTestId('user-search').fill(username)
    await page.getByTestId('user-table').getByText(username, { exact: true }).waitFor()
    await page.getByTestId('user-table').getByText('Data entry', { exact: true }).last().waitFor()
  })

  it('the new user signs in, must change the password first, then sees only what the data-entry role grants', async () => {
    const { page: own } = await newPage(browser, { lang: 'en' })
    await own.goto('/login')
    await own.locator('#login-username').fill(username.toUpperCase())
    await own.locator('#login-password').fill(oneTimePassword)
    await own.getByTestId('login-submit').click()

    // Nothing but the password change, which cannot be dismissed.
    await own.getByTestId('forced-password-page').waitFor({ state: 'attached' })
    await own.getByTestId('forced-password-note').waitFor()
    expect(await own.getByTestId('shell').count()).toBe(0)
    await own.keyboard.press('Escape')
    await own.getByTestId('change-password-form').waitFor()
    // The same password again is refused (SPEC §5), on the client and by the server.
    await own.getByTestId('pwd-oldPassword').fill(oneTimePassword)
    await own.getByTestId('pwd-newPassword').fill(oneTimePassword)
    await own.getByTestId('pwd-confirmPassword').fill(oneTimePassword)
    await own.getByTestId('pwd-submit').click()
    await own.getByText('The new password cannot be the same as the old one').first().waitFor()
    const fresh = 'Entry' + Date.now().toString(36).slice(-6) + '9'
    await own.getByTestId('pwd-newPassword').fill(fresh)
    await own.getByTestId('pwd-confirmPassword').fill(fresh)
    await own.getByTestId('pwd-submit').click()
    await own.getByTestId('shell').waitFor()

    // The sidebar holds only the granted screens.
    const entries = await own
      .getByTestId('sidebar')
      .locator('[data-testid^="menu-"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))
    expect(entries.sort()).toEqual([
      'menu-dashboard',
      'menu-dataList',
      'menu-multiList',
      'menu-patientList',
      'menu-sampleList',
      'menu-singleList',
    ])

    // A direct link to a screen the role does not grant shows /401; so does the user screen.
    for (const path of ['/dataDictionary/dictionaryList', '/management/user']) {
      await own.goto(path)
      await own.waitForURL('**/401')
      await own.getByTestId('page-401').waitFor()
    }

    // The palette offers no command the role does not grant.
    await own.goto('/dashboard')
    await own.getByTestId('shell').waitFor()
    await own.keyboard.press('Control+k')
    // The palette offers what the role grants (open a screen it grants), never what it does not.
    await own.getByTestId('palette-input').fill('patient')
    await own.getByTestId('palette-go.patientList').waitFor()
    const refused: [string, string][] = [
      ['new user', 'admin.newUser'],
      ['new indicator', 'dictionary.newIndicator'],
      ['audit', 'audit.open'],
      ['dictionary', 'go.dictionaryList'],
    ]
    for (const [text, id] of refused) {
      await own.getByTestId('palette-input').fill(text)
      await own.getByTestId('palette-list').waitFor()
      expect(await own.getByTestId(`palette-${id}`).count(), id).toBe(0)
    }
    await own.close()
  })
})
