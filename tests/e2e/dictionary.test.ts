/**
 * Issue 4 items 1–3 and 7 as a user drives them in Chromium: a new indicator made with the
 * keyboard from the palette, found in the system index (the DenseTable), switched off there,
 * found again by code through "find indicator", and a disease without projects deleted after
 * the SPEC confirmation. One signed-in page, used in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { adminPage, adminPassword, api, apiSignIn, launch, toastWith } from './browser.ts'

let browser: Browser
let page: Page
const code = `E2E_${Date.now().toString(36).toUpperCase()}`

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
})
afterAll(async () => {
  await browser?.close()
})

const palette = () => page.getByTestId('palette-input')
/** A field of the indicator form on screen (hidden tabs keep theirs). */
const formField = (name: string) => page.locator('[data-testid="indicator-form"]:visible').locator(`[name="${name}"]`)

describe('the data dictionary in Chromium', () => {
  it('creates an indicator with the keyboard from the palette', async () => {
    await page.keyboard.press('Control+K')
    await palette().waitFor()
    await palette().pressSequentially('new indicator')
    await page.locator('[data-testid="palette-dictionary.newIndicator"][aria-selected="true"]').waitFor()
    await page.keyboard.press('Enter')
    await page.waitForURL('**/dataDictionary/createFields')

    // The code field has the focus; the rest is reached with Tab.
    await page.getByTestId('indicator-form').waitFor()
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('code')
    await page.keyboard.type(code)
    await page.keyboard.press('Tab')
    await page.keyboard.type('端到端吸烟')
    await page.keyboard.press('Tab')
    await page.keyboard.type('E2E smoker')

    // Saving without options is refused in the server's words, before any call.
    await page.keyboard.press('Enter')
    expect(await page.getByTestId('error-options').textContent()).toBe('Fill in at least one valid option')

    // Options: Enter adds the next row.
    await page.getByTestId('option-0').focus()
    await page.keyboard.type('Yes')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('option-1')
    await page.keyboard.type('No')
    await page.getByTestId('error-options').waitFor({ state: 'detached' })
    // Each row gets the next free code, the stored value; labels are per language.
    expect([await page.getByTestId('option-0-code').inputValue(), await page.getByTestId('option-1-code').inputValue()]).toEqual(['1', '2'])
    await page.getByTestId('option-1-en').fill('No (en)')
    await formField('nameEn').focus()
    await page.keyboard.press('Enter')

    await toastWith(page, 'Save success').waitFor()
    await page.waitForURL('**/dataDictionary/dictionaryList')
  })

  it('shows it in the system index, and switches it off there', async () => {
    const table = page.getByTestId('indicator-table')
    await table.waitFor()
    await page.getByTestId('dict-search').fill(code)
    const row = page.getByTestId(`status-${code}`)
    await row.waitFor()
    await expect.poll(() => table.getAttribute('data-total')).toBe('1')
    expect(await table.locator('.bp6-table-cell', { hasText: '端到端吸烟' }).count()).toBe(1)
    expect(await row.isChecked()).toBe(true)

    await page.locator('label.bp6-switch', { has: row }).click()
    await toastWith(page, 'Update status success').waitFor()
    await expect.poll(() => row.isChecked()).toBe(false)

    // What the server holds now.
    const { token } = await apiSignIn('admin', adminPassword())
    const res = await api<{ rows: { code: string; status: number }[] }>('GET', '/api/dictionary/indicators', { token, query: { q: code } })
    expect(res.body.data?.rows.map((r) => [r.code, r.status])).toEqual([[code, 0]])

    // The filter on status agrees.
    await page.getByTestId('filter-status').selectOption('1')
    await expect.poll(() => table.getAttribute('data-total')).toBe('0')
    await page.getByTestId('filter-status').selectOption('')
    await expect.poll(() => table.getAttribute('data-total')).toBe('1')
  })

  it('finds it by code through "find indicator" and opens its form', async () => {
    await page.locator('body').click({ position: { x: 700, y: 10 } })
    await page.keyboard.press('Alt+I')
    await palette().waitFor()
    await palette().pressSequentially(code.toLowerCase())
    const item = page.locator(`[data-testid^="palette-record-indicator-"][aria-selected="true"]`, { hasText: code })
    await item.waitFor()
    await page.keyboard.press('Enter')
    await page.waitForURL('**/dataDictionary/fields?id=*')
    await expect.poll(() => formField('code').inputValue()).toBe(code)
    expect(await formField('nameZh').inputValue()).toBe('端到端吸烟')
    expect(await page.locator('[data-testid="indicator-form"]:visible [data-testid="option-1"]').inputValue()).toBe('No')
  })

  it('deletes a disease without projects after the SPEC confirmation', async () => {
    const { token } = await apiSignIn('admin', adminPassword())
    const name = `E2E病种${Date.now()}`
    const created = await api<{ id: number }>('POST', '/api/dictionary/diseases', {
      token,
      body: { name, nameEn: 'E2E disease', icon: 'lungs' },
    })
    const id = created.body.data?.id
    expect(id).toBeGreaterThan(0)

    await page.goto('/dataDictionary/diseaseList')
    const card = page.getByTestId(`disease-${id}`)
    await card.waitFor()
    expect(await card.locator('.disease-icon[data-icon="lungs"]').count()).toBe(1)
    await card.getByTestId('cmd-dictionary.deleteDisease').click()
    expect(await page.getByTestId('confirm-message').textContent()).toBe('Are you sure to delete the selected content?')
    await page.getByText('Deletion is irreversible').waitFor()
    await page.getByRole('button', { name: 'Confirm' }).click()
    await toastWith(page, 'Deleted successfully').waitFor()
    await card.waitFor({ state: 'detached' })

    const after = await api<{ id: number }[]>('GET', '/api/dictionary/diseases', { token })
    expect(after.body.data?.some((d) => d.id === id)).toBe(false)
  })
})
