import fs from 'node:fs'
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
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
  // Conditions a person would see within seconds: fail fast rather than at the test's time-out.
  context.setDefaultTimeout(10_000)
  const page = await context.newPage()
  page.on('pageerror', (e) => console.error('[page error]', e.message))
  const logged: string[] = []
  consoleLogs.set(page, logged)
  page.on('console', (m) => void logged.push(`${m.type()}: ${m.text()}`))
  return { context, page }
}

const consoleLogs = new WeakMap<Page, string[]>()

/** What the page wrote to its console so far, each as 'type: text' (warning, error, log…). */
export const consoleOf = (page: Page): readonly string[] => consoleLogs.get(page) ?? []

/** Signs in through the login form, as a person would. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login')
  await page.locator('#login-username').fill(username)
  await page.locator('#login-password').fill(password)
  await page.getByTestId('login-submit').click()
  await page.getByTestId('shell').waitFor()
}

/** A page of its own context, signed in as the administrator, in `lang` (null: no language cookie, the app's default). */
export async function adminPage(browser: Browser, lang: 'zh' | 'en' | null = 'en'): Promise<Page> {
  const { page } = await newPage(browser, { lang: lang ?? undefined })
  await signIn(page, 'admin', adminPassword())
  return page
}

/** SPEC §9: the session cookie (and header) name. */
export const TOKEN_COOKIE = 'Kr-D-Token'

/** A cookie of the page's origin, or undefined. */
export async function cookie(context: BrowserContext, name: string): Promise<string | undefined> {
  const all = await context.cookies(baseUrl())
  return all.find((c) => c.name === name)?.value
}

/** A Blueprint toast showing `text` (the toaster lives in a portal at the top of the page). */
export function toastWith(page: Page, text: string): Locator {
  return page.locator('.bp6-toast', { hasText: text })
}

export interface ApiAnswer<T = unknown> {
  status: number
  body: { code: number; msg: string; boolResult?: boolean; data?: T }
}

/** A call to the e2e server from the test itself (not from the page), e.g. to end a session. */
export async function api<T = unknown>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  options: { token?: string; body?: unknown; query?: Record<string, string> } = {},
): Promise<ApiAnswer<T>> {
  const url = new URL(path, baseUrl())
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v)
  const headers: Record<string, string> = {}
  if (options.token) headers['Kr-D-Token'] = options.token
  if (options.body !== undefined) headers['Content-Type'] = 'application/json'
  const res = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) })
  return { status: res.status, body: (await res.json()) as ApiAnswer<T>['body'] }
}

/** Signs in through the API (no browser): the token and the user id. Counts against the sign-in rate limit. */
export async function apiSignIn(username: string, password: string): Promise<{ token: string; userId: number }> {
  const res = await api<{ token: string; userId: number }>('POST', '/api/auth/jwt/token', { body: { username, password, platform: 'web' } })
  if (res.body.code !== 0 || !res.body.data) throw new Error(`sign-in of ${username} failed: ${res.status} ${res.body.msg}`)
  return res.body.data
}

/** Runs a command from the palette (Ctrl+K) by typing its title, as a keyboard user does. */
export async function runFromPalette(page: Page, search: string, commandId: string): Promise<void> {
  await page.keyboard.press('Control+K')
  const input = page.getByTestId('palette-input')
  await input.waitFor()
  await input.pressSequentially(search)
  await page.locator(`[data-testid="palette-${commandId}"][aria-selected="true"]`).waitFor()
  await page.keyboard.press('Enter')
  await input.waitFor({ state: 'detached' })
}

/** Opens the navbar's user dropdown and picks one of its commands (e.g. 'account.logout'). */
export async function fromUserMenu(page: Page, commandId: string): Promise<void> {
  await page.getByTestId('user-dropdown').click()
  await page.getByTestId(`cmd-${commandId}`).click()
}

/** The data-testid of the element holding the focus; 'body' while the focus is on the page itself. */
export const focusedTestId = (page: Page) =>
  page.evaluate(() => (document.activeElement === document.body ? 'body' : document.activeElement?.getAttribute('data-testid')))

/** Presses Tab (or Shift+Tab, to go back) until the focus is inside `selector` (at most `max` times). */
export async function tabInto(page: Page, selector: string, max = 40, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.closest(s) !== null && document.activeElement !== document.body, selector))
      return
    await page.keyboard.press(key)
  }
  throw new Error(`Tab never reached ${selector}`)
}

/** Holds the page's `method` calls to `url` until released, so a busy state can be looked at; counts them. */
export async function hold(page: Page, url: string, method: string) {
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

/** Runs `during` while the page's `method` calls to `url` are held, then lets them go; answers how many were held. */
export async function whileHeld(page: Page, url: string, method: string, during: () => Promise<void>): Promise<number> {
  const call = await hold(page, url, method)
  try {
    await during()
  } finally {
    await call.release()
  }
  return call.calls()
}

/** A 1×1 PNG, for a picture field. */
const tinyPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

/**
 * Enter on the focused file button, and `file` chosen in the chooser it opens. Now and then the
 * Enter opens no chooser (seen in CI right after the data-loading panel re-rendered, and here right
 * after a dialog opened), so one not open in 4 s is asked for again.
 */
export async function chooseFile(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser', { timeout: 4_000 }).catch(() => undefined),
      page.keyboard.press('Enter'),
    ])
    if (chooser) return chooser.setFiles(file)
  }
  throw new Error('Enter on the file button never opened the file chooser')
}

/** chooseFile with `name`, a 1×1 PNG. */
export const choosePicture = (page: Page, name: string) => chooseFile(page, { name, mimeType: 'image/png', buffer: tinyPng })

/**
 * The cells of a DenseTable on screen whose text matches `pattern`, each with whether its text is
 * cut short (drawn with an ellipsis) by a column too narrow for it.
 */
export function cellsMatching(table: Locator, pattern: RegExp): Promise<{ text: string | null; cut: boolean }[]> {
  return table.locator('.bp6-table-cell').evaluateAll(
    (cells, source) =>
      cells
        .filter((c) => new RegExp(source).test(c.textContent ?? '') && c.getClientRects().length > 0)
        .map((c) => {
          const text = c.querySelector('.bp6-table-truncated-text') ?? c
          return { text: c.textContent, cut: text.scrollWidth > text.clientWidth }
        }),
    pattern.source,
  )
}

/** The date-time cells (Y-M-D h:m…) of a DenseTable on screen, as cellsMatching. */
export const timeCells = (table: Locator) => cellsMatching(table, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/)
