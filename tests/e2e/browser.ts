import fs from 'node:fs'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { inject } from 'vitest'

const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/** Debian's Chromium, headless, with the flags this closed network needs. */
export async function launch(): Promise<Browser> {
  if (!fs.existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath} (apt-get install chromium)`)
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}

export const baseUrl = () => inject('baseUrl')
export const adminPassword = () => inject('adminPassword')

export async function newPage(browser: Browser, options: { lang?: 'zh' | 'en' } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1400, height: 900 } })
  if (options.lang) await context.addCookies([{ name: 'language', value: options.lang, url: baseUrl() }])
  const page = await context.newPage()
  page.on('pageerror', (e) => console.error('[page error]', e.message))
  return { context, page }
}

/** Signs in through the login form, as a person would. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login')
  await page.locator('#login-username').fill(username)
  await page.locator('#login-password').fill(password)
  await page.getByTestId('login-submit').click()
  await page.getByTestId('shell').waitFor()
}
