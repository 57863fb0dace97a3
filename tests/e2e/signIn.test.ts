import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { adminPassword, launch, newPage, signIn } from './browser.ts'

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

describe('sign-in in Chromium', () => {
  it('loads the built app, refuses a wrong password with the SPEC message, then signs in', async () => {
    const { context, page } = await newPage(browser, { lang: 'en' })
    await page.goto('/project/multi-list')
    await page.waitForURL('**/login')
    await page.locator('#login-username').fill('admin')
    await page.locator('#login-password').fill('wrong1234')
    await page.getByTestId('login-submit').click()
    await expect(page.getByTestId('login-error').textContent()).resolves.toContain(
      'The username and the password you typed do not match. Please retype them!',
    )
    await signIn(page, '  admin ', adminPassword())
    await page.waitForURL('**/project/multi-list')
    await expect(page.getByTestId('navbar').textContent()).resolves.toContain('Administrator')
    const cookies = await context.cookies()
    expect(cookies.find((c) => c.name === 'Kr-D-Token')?.value).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    await context.close()
  })
})
