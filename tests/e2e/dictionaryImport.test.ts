/**
 * Issue 7 item 8 as a user drives it in Chromium: an edited dictionary file imported again with
 * "update", previewed (what is added, what changes), then confirmed; the indicator holds the edit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { adminPage, adminPassword, api, apiSignIn, launch } from './browser.ts'

let browser: Browser
let page: Page
const code = `E2EIMP_${Date.now().toString(36).toUpperCase()}`

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
})
afterAll(async () => {
  await browser?.close()
})

describe('dictionary import with a preview', () => {
  it('previews an update, confirms it, and the indicator holds the edit', async () => {
    const { token } = await apiSignIn('admin', adminPassword())
    const created = await api('POST', '/api/dictionary/indicators', {
      token,
      body: { code, nameZh: '原名', type: 'blank', display: 'input' },
    })
    expect(created.status).toBe(200)

    await page.goto('/dataDictionary/dictionaryList')
    await page.getByTestId('dict-import').click()
    const dialog = page.locator('.import-dialog')
    await dialog.waitFor()
    const csv = `code,nameZh,type\n${code},新名,blank\n${code}_NEW,新增,blank\n`
    await page.setInputFiles('#import-file', { name: 'edited.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await expect.poll(() => page.getByTestId('import-confirm').isDisabled()).toBe(true)
    await dialog.getByText('Update those indicators, add the rest').click()
    await page.getByTestId('import-preview').click()

    const report = page.getByTestId('import-preview-report')
    await report.waitFor()
    expect(await report.textContent()).toContain('Preview — added: 1, changed: 1, unchanged: 0; nothing written yet')
    // File row 2 changes its Chinese name; row 3 is new.
    expect(await report.locator('tbody tr').nth(0).textContent()).toBe(`2${code}ChangedChinese name`)
    expect(await report.locator('tbody tr').nth(1).textContent()).toBe(`3${code}_NEWAdded`)
    // Nothing was written by the preview.
    const before = await api<{ rows: { nameZh: string }[] }>('GET', '/api/dictionary/indicators', { token, query: { q: code } })
    expect(JSON.stringify(before.body)).toContain('原名')

    await page.getByTestId('import-confirm').click()
    await page.getByTestId('import-done').waitFor()
    expect(await page.getByTestId('import-done').textContent()).toContain('Imported — added: 1, changed: 1, unchanged: 0, forms: 0')
    const after = await api('GET', '/api/dictionary/indicators', { token, query: { q: code } })
    expect(JSON.stringify(after.body)).toContain('新名')
  })
})
