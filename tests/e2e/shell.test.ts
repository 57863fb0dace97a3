/**
 * Issue 3 item 9, the shell as a user drives it: the palette by keyboard switches the language,
 * the size menu switches the size, two screens side by side and a hotkey closing one, the
 * shortcut sheet. One signed-in page, used in order: each test starts where the last one ended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { adminPage, cookie, launch, toastWith } from './browser.ts'

let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser, null)
  context = page.context()
  await page.waitForURL('**/project/multi-list')
})
afterAll(async () => {
  await browser?.close()
})

const sidebarItem = (name: string) => page.getByTestId(`menu-${name}`)
const breadcrumb = () => page.locator('.navbar-breadcrumb')
const text = async (selector: ReturnType<Page['locator']>) => (await selector.textContent())?.trim() ?? ''

describe('the shell in Chromium', () => {
  it('switches to English from the palette opened by Control+K, and keeps it after a reload', async () => {
    // Chinese by default: no language cookie was set.
    await sidebarItem('multiList').filter({ hasText: '多中心项目' }).waitFor()
    expect(await text(breadcrumb())).toContain('多中心项目')

    await page.keyboard.press('Control+K')
    const input = page.getByTestId('palette-input')
    await input.waitFor()
    await input.pressSequentially('English')
    // The command is found by its English title although the app speaks Chinese, and is first.
    await page.locator('[data-testid="palette-view.lang.en"][aria-selected="true"]').waitFor()
    await page.keyboard.press('Enter')

    await toastWith(page, 'Switch Language Success').waitFor()
    await input.waitFor({ state: 'detached' })
    await sidebarItem('multiList').filter({ hasText: 'Multi-center Projects' }).waitFor()
    expect(await text(sidebarItem('patientList'))).toBe('Patient List')
    expect(await text(breadcrumb())).toMatch(/Dashboard.*Project.*Multi-center Projects/)
    expect(await text(breadcrumb().locator('.bp6-breadcrumb-current'))).toBe('Multi-center Projects')
    expect(await text(page.getByTestId('lang-select'))).toBe('English')
    expect(await cookie(context, 'language')).toBe('en')

    // English is a chunk of its own, fetched before the first render: no Chinese is ever shown.
    await page.addInitScript(() => {
      new MutationObserver(() => {
        if (document.body?.textContent?.includes('多中心项目')) document.documentElement.dataset.sawChinese = 'yes'
      }).observe(document, { subtree: true, childList: true, characterData: true })
    })
    const fetched: string[] = []
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname))
    await page.reload()
    await sidebarItem('multiList').filter({ hasText: 'Multi-center Projects' }).waitFor()
    expect(await text(breadcrumb())).toContain('Multi-center Projects')
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en')
    expect(await page.evaluate(() => document.documentElement.dataset.sawChinese ?? 'no')).toBe('no')
    expect(fetched.filter((p) => /\/assets\/en-[\w-]+\.js$/.test(p))).toHaveLength(1)
    // The current language is disabled in the language menu, the other one is not.
    await page.getByTestId('lang-select').click()
    const en = page.getByTestId('cmd-view.lang.en')
    await en.waitFor()
    expect(await en.getAttribute('aria-disabled')).toBe('true')
    expect(await page.getByTestId('cmd-view.lang.zh').getAttribute('aria-disabled')).not.toBe('true')
    await page.keyboard.press('Escape')
    await en.waitFor({ state: 'detached' })
  })

  it('switches the size through the size menu, in the current language, and keeps it after a reload', async () => {
    const shell = page.getByTestId('shell')
    expect(await shell.getAttribute('class')).toContain('size-medium')
    await page.getByTestId('size-select').click()
    await page.getByTestId('cmd-view.size.small').click()

    await toastWith(page, 'Switch Size Success').waitFor()
    await page.locator('[data-testid="shell"].size-small').waitFor()
    expect(await shell.getAttribute('class')).not.toContain('size-medium')
    expect(await text(page.getByTestId('size-select'))).toBe('Small')
    expect(await cookie(context, 'size')).toBe('small')
    // The view was refreshed through /redirect and the URL came back to the screen.
    await page.waitForURL('**/project/multi-list')
    await page
      .getByTestId('pane')
      .filter({ has: page.locator('.view-frame') })
      .first()
      .waitFor()

    await page.reload()
    await page.locator('[data-testid="shell"].size-small').waitFor()
    await page.getByTestId('size-select').click()
    const small = page.getByTestId('cmd-view.size.small')
    await small.waitFor()
    expect(await small.getAttribute('aria-disabled')).toBe('true')
    await page.keyboard.press('Escape')
    await small.waitFor({ state: 'detached' })
  })

  it('opens two screens side by side with Control+\\ and closes one with Alt+W', async () => {
    const workspace = page.getByTestId('workspace')
    await sidebarItem('patientList').click()
    await page.waitForURL('**/patient/index')
    await page.locator('[data-testid="tab"][data-path="/patient/index"]').waitFor()
    expect(await workspace.getAttribute('data-panes')).toBe('1')

    // Split right: the screen seen before (the project list) comes beside the patient list.
    await page.keyboard.press('Control+Backslash')
    await page.locator('[data-testid="workspace"][data-panes="2"]').waitFor()
    const panes = page.getByTestId('pane')
    expect(await panes.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))).toEqual(['/patient/index', '/project/multi-list'])
    for (const pane of await panes.all()) expect(await pane.isVisible()).toBe(true)
    // Side by side: the second pane is to the right of the first, at the same height.
    const [left, right] = await Promise.all([panes.nth(0).boundingBox(), panes.nth(1).boundingBox()])
    expect(left && right && right.x >= left.x + left.width - 1 && Math.abs(right.y - left.y) < 2).toBe(true)
    // The new pane has the focus and the URL.
    await page.waitForURL('**/project/multi-list')

    await page.keyboard.press('Alt+W')
    await page.locator('[data-testid="workspace"][data-panes="1"]').waitFor()
    await page.locator('[data-testid="tab"][data-path="/project/multi-list"]').waitFor({ state: 'detached' })
    expect(await panes.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))).toEqual(['/patient/index'])
    await page.waitForURL('**/patient/index')
    expect(await page.getByTestId('tab').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))).toEqual([
      '/dashboard',
      '/patient/index',
    ])
  })

  it('shares a bar the tabs outgrow: long labels give way to a readable width before the bar scrolls', async () => {
    for (const name of ['sampleList', 'dictionaryList', 'diseaseList', 'crfManager', 'auditLog', 'multiList', 'singleList']) {
      await sidebarItem(name).click()
      await page.locator('[data-testid="tab"][aria-selected="true"]').waitFor()
    }
    const bar = page.getByTestId('tab-bar')
    const overflow = () => bar.evaluate((el) => el.scrollWidth - el.clientWidth)
    // With room to spare every tab is whole. Measured: the width the tabs take whole, and at their least.
    await expect.poll(overflow).toBeLessThanOrEqual(0)
    const { whole, least, width } = await bar.evaluate((el) => {
      const holders = [...el.children] as HTMLElement[]
      const style = getComputedStyle(el)
      const rest = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + parseFloat(style.columnGap) * (holders.length - 1)
      const content = holders.reduce((sum, h) => sum + h.getBoundingClientRect().width, 0)
      const spare = holders.reduce((sum, h) => {
        const min = parseFloat(getComputedStyle(h).minWidth) || 0
        return sum + (h.classList.contains('affix') ? 0 : Math.max(0, h.getBoundingClientRect().width - min))
      }, 0)
      return { whole: content + rest, least: content - spare + rest, width: el.clientWidth }
    })
    expect(whole - least).toBeGreaterThan(40)
    // A window that holds the tabs at their least but not whole: the bar is shared, not scrolled.
    const viewport = page.viewportSize()!
    await page.setViewportSize({ width: Math.round(viewport.width - (width - (whole + least) / 2)), height: viewport.height })
    try {
      await expect.poll(() => bar.evaluate((el) => el.clientWidth)).toBeLessThan(whole - 10)
      expect(await overflow()).toBeLessThanOrEqual(0)
      const cutLabels = await page
        .locator('[data-testid="tab"] .bp6-text-overflow-ellipsis')
        .evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent))
      expect(cutLabels.length).toBeGreaterThan(0)
      expect(cutLabels).not.toContain('Dashboard')
      const widths = await page.locator('[data-testid="tab"]').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width))
      expect(Math.min(...widths.slice(1))).toBeGreaterThanOrEqual(95)
    } finally {
      await page.setViewportSize(viewport)
    }
  })

  it('keeps the shown tab in sight when more tabs are open than the bar can show', async () => {
    const screens = [
      'sampleList',
      'dictionaryList',
      'diseaseList',
      'crfManager',
      'auditLog',
      'user',
      'role',
      'catalog',
      'department',
      'career',
      'account',
      'singleList',
      'multiList',
      'patientList',
    ]
    for (const name of screens) {
      await sidebarItem(name).click()
      await page.locator('[data-testid="tab"][aria-selected="true"]').waitFor()
    }
    // Opened by its address, as a link or a bookmark opens a screen: the page loads afresh.
    await page.goto('/project/progress?id=1')
    await page.locator('[data-testid="tab"][aria-selected="true"][data-path="/project/progress?id=1"]').waitFor()
    const inSight = async () => {
      const bar = await page.getByTestId('tab-bar').boundingBox()
      const shown = await page.locator('[data-testid="tab"][aria-selected="true"]').boundingBox()
      return !!bar && !!shown && shown.x >= bar.x - 1 && shown.x + shown.width <= bar.x + bar.width + 1
    }
    expect(await page.getByTestId('tab-bar').evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
    // The last one opened, at the far end of the bar; then the first one again.
    await expect.poll(inSight).toBe(true)
    await sidebarItem('sampleList').click()
    await page.waitForURL('**/sample/index')
    await expect.poll(inSight).toBe(true)
  })

  it('lists every command with its hotkey in the shortcut sheet (Shift+/)', async () => {
    await page.keyboard.press('Shift+Slash')
    const sheet = page.getByTestId('shortcuts-sheet')
    await sheet.waitFor()
    const rows = await sheet
      .locator('tbody tr')
      .evaluateAll((trs) =>
        Object.fromEntries(trs.map((tr) => [tr.children[0]?.textContent?.trim() ?? '', tr.children[1]?.textContent?.trim() ?? ''])),
      )
    expect(rows).toMatchObject({
      'Open command palette': 'Ctrl+K',
      'Close tab': 'Alt+W',
      'Split right': 'Ctrl+\\',
      'Show keyboard shortcuts': 'Shift+/',
      'Log out': 'Alt+Shift+Q',
      'Multi-center Projects': 'Alt+1',
      'Switch language: English': '—',
    })
    expect(Object.keys(rows).length).toBeGreaterThan(30)
    await page.keyboard.press('Escape')
    await sheet.waitFor({ state: 'detached' })
  })

  it('a hotkey that opens a screen puts the focus in it, and Tab goes on inside it', async () => {
    /** The path of the pane holding the focus, or what holds it when no pane does. */
    const focusedPane = () =>
      page.evaluate(() => {
        const el = document.activeElement
        if (!el || el === document.body) return 'body'
        return el.closest('[data-testid="pane"]')?.getAttribute('data-path') ?? el.tagName
      })
    for (const [key, path] of [
      ['Alt+4', '/sample/index'],
      ['Alt+3', '/patient/index'],
      ['Alt+6', '/dataDictionary/diseaseList'],
    ] as const) {
      await page.keyboard.press(key)
      await page.waitForURL(`**${path}`)
      await expect.poll(focusedPane).toBe(path)
      await page.keyboard.press('Tab')
      expect(await focusedPane()).toBe(path)
    }
  })
})
