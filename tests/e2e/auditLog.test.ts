/**
 * The audit log viewer (issue 8 item 6) in Chromium: a disease created through the API is found
 * in the audit log opened from the palette and filtered by action; the CSV export downloads a
 * file with that row; an indicator's own history opens beside its form with Alt+Shift+H. Every
 * row it looks for is one it made itself, named uniquely, so other files' data does not matter.
 */
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { adminPage, adminPassword, api, apiSignIn, launch } from './browser.ts'

let browser: Browser
let page: Page
let token: string
const stamp = Date.now().toString(36).toUpperCase()
const diseaseName = `E2E审计${stamp}`

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  ;({ token } = await apiSignIn('admin', adminPassword()))
})
afterAll(async () => {
  await browser?.close()
})

const palette = () => page.getByTestId('palette-input')
/** The audit table on screen (a hidden tab keeps its own). */
const table = () => page.locator('[data-testid="audit-table"]:visible')

describe('the audit log in Chromium', () => {
  it('opens from the palette, filters by action, and shows the row of a change made through the API', async () => {
    const created = await api<{ id: number }>('POST', '/api/dictionary/diseases', { token, body: { name: diseaseName, icon: 'pulse' } })
    expect(created.status).toBe(200)

    await page.keyboard.press('Control+K')
    await palette().waitFor()
    await palette().pressSequentially('open audit log')
    await page.locator('[data-testid="palette-audit.open"][aria-selected="true"]').waitFor()
    await page.keyboard.press('Enter')
    await page.waitForURL('**/management/audit-log')
    await table().waitFor()

    await page.locator('[data-testid="audit-filter-action"]:visible').fill('disease.create')
    const row = table().locator('.bp6-table-cell', { hasText: diseaseName })
    await row.first().waitFor()
    // Every row shown is of that action, once the typed filter has reached the server.
    const actions = () =>
      table()
        .locator('.bp6-table-cell', { hasText: /^disease\./ })
        .allTextContents()
    await expect.poll(async () => [...new Set(await actions())]).toEqual(['disease.create'])

    // Narrowed to the disease itself: its one row.
    await page.locator('[data-testid="audit-filter-object-type"]:visible').selectOption('disease')
    await page.locator('[data-testid="audit-filter-object-id"]:visible').fill(String(created.body.data?.id))
    await expect.poll(() => table().getAttribute('data-total')).toBe('1')
    // A time range typed as a date alone: a day before today leaves nothing, today's whole day the row.
    const to = page.locator('[data-testid="audit-filter-to"]:visible input.bp6-input')
    await to.fill('2000-01-01')
    await expect.poll(() => table().getAttribute('data-total')).toBe('0')
    await to.fill(
      await page.evaluate(() => {
        const d = new Date()
        return `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`
      }),
    )
    await expect.poll(() => table().getAttribute('data-total')).toBe('1')
    // A bound that is no time is named, and the list shows nothing rather than rows outside the range meant.
    await to.fill('11/20/2026')
    await expect
      .poll(() => page.locator('[data-testid="audit-range-unreadable"]:visible').textContent())
      .toMatch(/"11\/20\/2026" is not a time/)
    await expect.poll(() => table().getAttribute('data-total')).toBe('0')
    await to.fill('')
    await expect.poll(() => page.locator('[data-testid="audit-range-unreadable"]:visible').count()).toBe(0)
    await expect.poll(() => table().getAttribute('data-total')).toBe('1')

    // Its detail in full: a double click opens it below the table.
    await table().locator('.bp6-table-cell', { hasText: diseaseName }).dblclick()
    const detail = page.locator('[data-testid="audit-detail"]:visible')
    await detail.waitFor()
    expect(await detail.locator('pre').textContent()).toContain(`"name": "${diseaseName}"`)
    expect(await detail.getByTestId('audit-detail-summary').textContent()).toMatch(
      /admin \(#\d+\) · .* · disease\.create · Succeeded · Disease #\d+/,
    )
  })

  it('exports the filtered rows as a CSV download', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid="cmd-audit.exportCsv"]:visible').click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{8}-\d{6}\.csv$/)
    const file = await download.path()
    const text = fs.readFileSync(file, 'utf8')
    expect(text.charCodeAt(0)).toBe(0xfeff)
    const lines = text.slice(1).trim().split('\r\n')
    expect(lines[0]).toBe('ID,Time,User ID,Username,Address,Action,Outcome,Object type,Object ID,Detail')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain('disease.create')
    expect(lines[1]).toContain(diseaseName)
  })

  it("opens an indicator's own history beside its form with Alt+Shift+H", async () => {
    const code = `E2E_AUDIT_${stamp}`
    const created = await api<{ id: number }>('POST', '/api/dictionary/indicators', {
      token,
      body: { code, nameZh: '审计指标', type: 'blank', display: 'input' },
    })
    expect(created.status).toBe(200)
    const id = created.body.data?.id
    await page.goto(`/dataDictionary/fields?id=${id}`)
    await page.locator('[data-testid="indicator-form"]:visible').waitFor()
    await page.locator('body').click({ position: { x: 700, y: 10 } })
    await page.keyboard.press('Alt+Shift+H')

    await page.waitForURL(`**/management/audit-log?objectType=indicator&objectId=${id}`)
    await expect.poll(() => table().getAttribute('data-total')).toBe('1')
    await table().locator('.bp6-table-cell', { hasText: 'indicator.create' }).waitFor()
    // The form is still on screen beside it.
    expect(await page.locator('[data-testid="indicator-form"]:visible').count()).toBe(1)
  })
})
