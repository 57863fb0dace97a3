/**
 * Issue 7 item 2: a REDCap form of 3,000 fields imports, opens in the designer and previews
 * without freezing the page: fields mount a slice per task (aria-busy until all are there), no
 * task blocks the page for long, and Tab and Enter still move field to field.
 */
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { adminPassword, api, apiSignIn, baseUrl, launch, newPage, signIn } from './browser.ts'

const fields = 3000
const form = `big_e2e_${Date.now().toString(36)}`
let browser: Browser
let page: Page
let crfId = 0

beforeAll(async () => {
  browser = await launch()
  const { token } = await apiSignIn('admin', adminPassword())
  const header = fs.readFileSync(new URL('../fixtures/redcap-dictionary.csv', import.meta.url), 'utf8').split('\n')[0]
  const rows = Array.from({ length: fields }, (_, i) => {
    const name = `${form}_f${i}`
    return i % 3 === 0
      ? `${name},${form},,radio,"Question ${i}","1, Yes | 2, No",,,,,,,,,,,,`
      : `${name},${form},,text,"Question ${i}",,,,,,,,,,,,,`
  })
  const body = new FormData()
  body.append('file', new Blob([[header, ...rows].join('\n')], { type: 'text/csv' }), 'big.csv')
  const res = await fetch(new URL('/api/dictionary/import?format=redcap', baseUrl()), {
    method: 'POST',
    headers: { 'Kr-D-Token': token },
    body,
  })
  if (res.status !== 200) throw new Error(`import: ${res.status} ${await res.text()}`)
  const list = await api<{ id: number; name: string }[]>('GET', '/api/templates', { token, query: { kind: 'crf', q: form } })
  crfId = list.body.data?.find((t) => t.name === form)?.id ?? 0
  if (!crfId) throw new Error('the imported CRF is missing')
  ;({ page } = await newPage(browser, { lang: 'en' }))
  // Every task over 50 ms the page runs, from the first document on.
  await page.addInitScript(() => {
    const w = window as unknown as { longTasks: number[] }
    w.longTasks = []
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push(e.duration)
    }).observe({ type: 'longtask', buffered: true })
  })
  await signIn(page, 'admin', adminPassword())
}, 120_000)
afterAll(async () => {
  await browser?.close()
})

const longestTask = () => page.evaluate(() => Math.max(0, ...(window as unknown as { longTasks: number[] }).longTasks))
const resetTasks = () => page.evaluate(() => ((window as unknown as { longTasks: number[] }).longTasks = []))

describe(`a form of ${fields} fields`, () => {
  it('previews progressively: a first slice at once, all fields soon after, no long freeze', { timeout: 60_000 }, async () => {
    await resetTasks()
    await page.goto(`/dataDictionary/previewCRF?id=${crfId}`)
    const renderer = page.getByTestId('form-renderer')
    await renderer.waitFor()
    const first = await page.locator('[data-field]').count()
    expect(first).toBeGreaterThan(0)
    expect(first).toBeLessThan(fields)
    await page.locator('[data-testid="form-renderer"][data-complete="true"]').waitFor({ timeout: 30_000 })
    expect(await page.locator('[data-field]').count()).toBe(fields)
    const longest = await longestTask()
    console.log(`preview of ${fields} fields: first paint ${first} fields, longest task ${Math.round(longest)} ms`)
    expect(longest).toBeLessThan(1500)
  })

  it('moves field to field with Enter and Tab', async () => {
    await page.locator('[data-field]').nth(1).locator('input').focus()
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-code'))).toBe(`${form}_f2`)
    await page.keyboard.type('typed')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-code'))).toBe(`${form}_f3`)
    // Far down the form, typing answers at once: one field re-renders, not three thousand.
    const last = page.locator(`[data-field][data-code="${form}_f2999"] input`)
    await last.focus()
    await resetTasks()
    await page.keyboard.type('abc')
    expect(await last.inputValue()).toBe('abc')
    expect(await longestTask()).toBeLessThan(1000)
  })

  it('opens in the designer progressively, with every item in the end', { timeout: 300_000 }, async () => {
    await resetTasks()
    const t0 = Date.now()
    await page.goto(`/dataDictionary/edit-crf-temp?id=${crfId}`)
    await page.getByTestId('designer-item').first().waitFor({ timeout: 90_000 })
    const first = await page.getByTestId('designer-item').count()
    expect(first).toBeLessThan(fields)
    await page.locator('[data-testid="designer-sections"][aria-busy="false"]').waitFor({ timeout: 120_000 })
    expect(await page.getByTestId('designer-item').count()).toBe(fields)
    const longest = await longestTask()
    console.log(
      `designer of ${fields} fields: first ${first} items, all after ${Date.now() - t0} ms, longest task ${Math.round(longest)} ms`,
    )
    // Loose, for a shared machine; Blueprint's self-measuring Tag in every row made it 2.7–5.6 s here.
    expect(longest).toBeLessThan(3000)
    // The keyboard still walks the items: ↓ from the first selects the second.
    await page.getByTestId('designer-item').first().focus()
    await page.keyboard.press('ArrowDown')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-code'))).toBe(`${form}_f1`)
  })
})
