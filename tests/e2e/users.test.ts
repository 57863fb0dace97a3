/**
 * Issue 8 items 1 and 4 in Chromium: the administrator opens the user screen, creates a person
 * with the data-entry role from the keyboard and the mouse, and the one-time password dialog
 * shows a password once. (The main session's admin flow signs in as that person.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { adminPassword, launch, newPage, signIn, toastWith } from './browser.ts'

let browser: Browser
let page: Page
const username = `e2e_${Date.now().toString(36)}`

beforeAll(async () => {
  browser = await launch()
  ;({ page } = await newPage(browser, { lang: 'en' }))
  await signIn(page, 'admin', adminPassword())
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
    await toastWith(page, 'Save success').waitFor()
    await page.getByTestId('one-time-password-done').click()
    await page.getByTestId('one-time-password-dialog').waitFor({ state: 'detached' })

    // The list shows the new person with the role.
    await page.getByTestId('user-search').fill(username)
    await page.getByTestId('user-table').getByText(username, { exact: true }).waitFor()
    await page.getByTestId('user-table').getByText('Data entry', { exact: true }).last().waitFor()
  })
})
