/**
 * Issue 7 items 5 and 6, by keyboard: Ctrl+K finds a CRF by name below the commands, the first
 * match is selected and Enter opens it (one tab, named after the CRF); the same CRF opened again
 * from its manager is the same tab; find indicator (Alt+I) by code, Enter opens it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPage, api, cookie, launch } from './browser.ts'

let browser: Browser
let page: Page
const p = `q${Date.now().toString(36)}`
const crfName = `Qzv ${p}`
const code = `${p}_hr`
let crfId = 0
let indicatorId = 0

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser, null)
  const context = page.context()
  const token = await cookie(context, TOKEN_COOKIE)
  if (!token) throw new Error('no session cookie after sign-in')
  const crf = await api<{ id: number }>('POST', '/api/templates', { token, body: { kind: 'crf', name: crfName } })
  if (crf.body.code !== 0 || !crf.body.data) throw new Error(`crf: ${crf.status} ${crf.body.msg}`)
  crfId = crf.body.data.id
  const ind = await api<{ id: number }>('POST', '/api/dictionary/indicators', {
    token,
    body: { code, nameZh: '心率', nameEn: 'Heart rate', type: 'blank', display: 'input', dataType: 'integer' },
  })
  if (ind.body.code !== 0 || !ind.body.data) throw new Error(`indicator: ${ind.status} ${ind.body.msg}`)
  indicatorId = ind.body.data.id
})
afterAll(async () => {
  await browser?.close()
})

const designerTabs = () => page.locator('[data-testid="tab"][data-path^="/dataDictionary/edit-crf-temp"]')

describe('one door to a record', () => {
  it('Ctrl+K, the CRF’s name, Enter: the first match is selected and opens in its own tab named after it', async () => {
    await page.keyboard.press('Control+K')
    const input = page.getByTestId('palette-input')
    await input.waitFor()
    await input.pressSequentially(crfName)
    await page.locator(`[data-testid="palette-record-template-${crfId}"][aria-selected="true"]`).waitFor()
    await page.keyboard.press('Enter')
    await input.waitFor({ state: 'detached' })
    await page.waitForURL(new RegExp(`/dataDictionary/edit-crf-temp\\?id=${crfId}$`))
    await page.locator('[data-testid="designer"] h4', { hasText: crfName }).waitFor()
    await page.locator(`[data-testid="tab"][data-path="/dataDictionary/edit-crf-temp?id=${crfId}"]`, { hasText: crfName }).waitFor()
    expect(await designerTabs().count()).toBe(1)
    // The keyboard lands in the new view: its heading has the focus.
    await page.waitForFunction(
      (name) => document.activeElement?.tagName === 'H4' && document.activeElement.textContent?.includes(name),
      crfName,
    )
  })

  it('the same CRF opened again (a link with other parameters) is the same tab', async () => {
    await page.keyboard.press('Alt+5')
    await page.waitForURL(/dictionaryList/)
    await page.evaluate((id) => {
      window.history.pushState(null, '', `/dataDictionary/edit-crf-temp?name=x&id=${id}`)
      window.dispatchEvent(new PopStateEvent('popstate'))
    }, crfId)
    await page.waitForURL(new RegExp(`/dataDictionary/edit-crf-temp\\?id=${crfId}$`))
    expect(await designerTabs().count()).toBe(1)
  })

  it('add section (Alt+Shift+S) puts the focus on its title; sub form (Alt+Shift+U) makes it repeating', async () => {
    await page.locator('[data-testid="designer"] h4', { hasText: crfName }).waitFor()
    await page.keyboard.press('Alt+Shift+S')
    const section = page.locator('[data-testid^="designer-section-"]').last()
    await page.waitForFunction(
      () => document.activeElement?.closest('[data-testid^="designer-section-"]') !== null && document.activeElement?.tagName === 'INPUT',
    )
    await page.keyboard.type('Vitals')
    expect(await section.locator('input').first().inputValue()).toBe('Vitals')
    await page.keyboard.press('Alt+Shift+U')
    await page.locator('[data-testid^="designer-section-"].repeating').waitFor()
    await page.locator('[data-testid="designer"][data-dirty="true"]').waitFor()
  })

  it('find indicator (Alt+I) by code: Enter opens the first match', async () => {
    await page.keyboard.press('Alt+I')
    const input = page.getByTestId('palette-input')
    await input.waitFor()
    await input.pressSequentially(code)
    await page.locator(`[data-testid="palette-record-indicator-${indicatorId}"][aria-selected="true"]`).waitFor()
    await page.keyboard.press('Enter')
    await page.waitForURL(new RegExp(`/dataDictionary/fields\\?id=${indicatorId}$`))
    await page.locator(`[data-testid="tab"][data-path="/dataDictionary/fields?id=${indicatorId}"]`, { hasText: `${code} 心率` }).waitFor()
  })

  it('preview (Alt+Shift+V) from the designer puts the focus in the preview', async () => {
    await page.keyboard.press('Control+K')
    const input = page.getByTestId('palette-input')
    await input.waitFor()
    await input.pressSequentially(crfName)
    await page.locator(`[data-testid="palette-record-template-${crfId}"][aria-selected="true"]`).waitFor()
    await page.keyboard.press('Enter')
    await page.locator('[data-testid="designer"] h4', { hasText: crfName }).waitFor()
    await page.keyboard.press('Alt+Shift+V')
    await page.waitForURL(new RegExp(`/dataDictionary/previewCRF\\?id=${crfId}$`))
    await page.waitForFunction(() => document.activeElement?.closest('[data-testid="template-preview"]') !== null)
  })
})
