/**
 * Issue 7 item 7, the client side: at 1440×900 the indicator list and the template lists fill
 * their pane with the action column last and visible without scrolling sideways; in a narrower
 * pane the identifying column stays frozen when scrolled right; the size setting changes the
 * row height and the text size; a CRF's collect type is shown whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPage, api, cellsMatching, cookie, launch } from './browser.ts'
import { seedCrf, seedIndicators } from './seed.ts'

let browser: Browser
let page: Page
const p = `d${Date.now().toString(36)}`

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  const context = page.context()
  await page.setViewportSize({ width: 1440, height: 900 })
  const token = await cookie(context, TOKEN_COOKIE)
  if (!token) throw new Error('no session cookie after sign-in')
  // More rows than the pane shows: the table must still fit once it scrolls and its cells redraw.
  const indicators = await seedIndicators(token, p, 60)
  await seedCrf(token, `CRF_${p}`, indicators.slice(0, 3))
  await seedCrf(token, `Baseline_${p}`, indicators.slice(3, 4), 'object')
  const group = await api('POST', '/api/templates', { token, body: { name: `Group_${p}`, kind: 'group' } })
  if (group.body.code !== 0) throw new Error(`group: ${group.body.msg}`)
})
afterAll(async () => {
  await browser?.close()
})

/** How the table's main quadrant sits: its scroll overflow and where its last header cell ends. */
async function layoutOf(table: Locator) {
  return table.evaluate((el) => {
    const scroller = el.querySelector<HTMLElement>('.bp6-table-quadrant-main .bp6-table-quadrant-scroll-container')
    const headers = [...el.querySelectorAll<HTMLElement>('.bp6-table-quadrant-main .bp6-table-column-headers .bp6-table-header')]
    const last = headers[headers.length - 1]
    if (!scroller || !last) throw new Error('no table')
    const box = scroller.getBoundingClientRect()
    const cell = last.getBoundingClientRect()
    return {
      overflow: scroller.scrollWidth - scroller.clientWidth,
      lastRight: cell.right,
      clientRight: box.left + scroller.clientWidth,
      lastText: last.textContent ?? '',
      lastVisible: cell.left >= box.left && cell.right <= box.left + scroller.clientWidth + 1,
    }
  })
}

const lists: [string, string, string, string][] = [
  ['indicator list', '/dataDictionary/dictionaryList', 'indicator-table', 'Actions'],
  ['CRF list', '/dataDictionary/crf-template', 'template-table', 'Actions'],
  ['question group list', '/dataDictionary/subject-template', 'template-table', 'Actions'],
]

describe('dense tables at 1440 × 900', () => {
  for (const [what, path, testId, actions] of lists) {
    it(`the ${what} fills its pane with the action column last and visible, no sideways scroll`, async () => {
      await page.goto(path)
      const table = page.locator(`[data-testid="pane"][data-path="${path}"]`).getByTestId(testId)
      await table.locator('.bp6-table-quadrant-main .bp6-table-cell').first().waitFor()
      await page.waitForTimeout(200)
      const layout = await layoutOf(table)
      expect(layout.overflow).toBeLessThanOrEqual(1)
      expect(layout.lastText).toContain(actions)
      expect(layout.lastVisible).toBe(true)
      // The columns sum to the pane's width: the last one ends at the right edge.
      expect(Math.abs(layout.clientRight - layout.lastRight)).toBeLessThanOrEqual(2)
    })
  }

  it('the CRF list shows a research-object CRF’s collect type whole', async () => {
    const path = '/dataDictionary/crf-template'
    await page.goto(path)
    const pane = page.locator(`[data-testid="pane"][data-path="${path}"]`)
    await pane.getByLabel('Collect type').selectOption('object')
    const table = pane.getByTestId('template-table')
    await table
      .locator('.bp6-table-quadrant-main .bp6-table-cell')
      .filter({ hasText: /^Research object$/ })
      .first()
      .waitFor()
    const cells = await cellsMatching(table, /^Research object$/)
    expect(cells.length).toBeGreaterThan(0)
    expect(cells.filter((c) => c.cut)).toEqual([])
  })

  it('the indicator list shows an indicator’s update time whole', async () => {
    const path = '/dataDictionary/dictionaryList'
    await page.goto(path)
    const table = page.locator(`[data-testid="pane"][data-path="${path}"]`).getByTestId('indicator-table')
    const time = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/
    await table.locator('.bp6-table-quadrant-main .bp6-table-cell').filter({ hasText: time }).first().waitFor()
    const cells = await cellsMatching(table, time)
    expect(cells.length).toBeGreaterThan(0)
    expect(cells.filter((c) => c.cut)).toEqual([])
  })

  it('in a pane too narrow for its columns, the identifying column stays when scrolled right', async () => {
    await page.goto('/dataDictionary/diseaseList')
    await page.getByTestId('workspace').waitFor()
    await page.goto('/dataDictionary/dictionaryList')
    await page.getByTestId('indicator-table').waitFor()
    await page.keyboard.press('Control+Backslash')
    await page.locator('[data-testid="workspace"][data-panes="2"]').waitFor()
    const table = page.locator('[data-testid="pane"][data-path="/dataDictionary/dictionaryList"]').getByTestId('indicator-table')
    await table.locator('.bp6-table-quadrant-main .bp6-table-cell').first().waitFor()
    expect((await layoutOf(table)).overflow).toBeGreaterThan(50)
    // Whatever other tests left in the dictionary: the first row's code, read before scrolling.
    const firstCode = (await table.locator('.bp6-table-quadrant-left .bp6-table-cell-row-0.bp6-table-cell-col-0').innerText()).trim()
    expect(firstCode).not.toBe('')

    await table.locator('.bp6-table-quadrant-main .bp6-table-quadrant-scroll-container').evaluate((el) => (el.scrollLeft = el.scrollWidth))
    await page.waitForTimeout(300)
    // The frozen quadrant shows the code header and the codes, at the table's left, over the scrolled body.
    const frozen = table.locator('.bp6-table-quadrant-left')
    const code = frozen.getByTestId('sort-code')
    expect(await code.isVisible()).toBe(true)
    const [codeBox, tableBox] = await Promise.all([code.boundingBox(), table.boundingBox()])
    expect(codeBox && tableBox && codeBox.x - tableBox.x < 80).toBe(true)
    const firstCell = frozen.locator('.bp6-table-cell-row-0.bp6-table-cell-col-0')
    expect((await firstCell.innerText()).trim()).toBe(firstCode)
    expect(await firstCell.isVisible()).toBe(true)
    // Only the identifying column is frozen.
    expect(await frozen.locator('.bp6-table-column-headers .bp6-table-header').count()).toBe(1)
    // A squeezed column's name ends inside its own header, not over the next one.
    const spills = await table.locator('.bp6-table-quadrant-main .bp6-table-header').evaluateAll((headers) =>
      headers.flatMap((h) => {
        const name = h.querySelector('.dense-sort-name, .dense-header')
        return name && name.getBoundingClientRect().right > h.getBoundingClientRect().right + 1 ? [name.textContent] : []
      }),
    )
    expect(spills).toEqual([])
    await page.keyboard.press('Alt+W')
    await page.locator('[data-testid="workspace"][data-panes="1"]').waitFor()
  })

  it('with no row selected no row is outlined; tabbing into the table selects and outlines the first', async () => {
    await page.goto('/dataDictionary/crf-template')
    const table = page.locator('[data-testid="pane"][data-path="/dataDictionary/crf-template"]').getByTestId('template-table')
    await table.locator('.bp6-table-quadrant-main .bp6-table-cell-row-0').first().waitFor()
    await page.waitForTimeout(200)
    const outlined = () =>
      table.locator('.bp6-table-focus-region').evaluateAll((els) => els.filter((el) => el.getClientRects().length > 0).length)
    expect(await outlined()).toBe(0)
    expect(await table.locator('.dense-row-focused').count()).toBe(0)
    for (let i = 0; i < 40 && !(await page.evaluate(() => document.activeElement?.classList.contains('bp6-table-container'))); i++)
      await page.keyboard.press('Tab')
    await table.locator('.bp6-table-quadrant-main .dense-row-focused.bp6-table-cell-row-0').first().waitFor()
    await expect.poll(outlined).toBeGreaterThan(0)
  })

  it('Home, End, PageDown and PageUp move the selected row as the shortcut sheet says', async () => {
    await page.goto('/dataDictionary/dictionaryList')
    const table = page.locator('[data-testid="pane"][data-path="/dataDictionary/dictionaryList"]').getByTestId('indicator-table')
    await table.locator('.bp6-table-quadrant-main .bp6-table-cell').first().waitFor()
    const focusedRow = () =>
      table
        .locator('.bp6-table-quadrant-main .dense-row-focused')
        .first()
        .evaluate((el) => Number(/bp6-table-cell-row-(\d+)/.exec(el.className)?.[1]))
    await table.locator('.bp6-table-quadrant-main .bp6-table-cell-row-0.bp6-table-cell-col-1').click()
    expect(await focusedRow()).toBe(0)
    const loaded = Number(await table.getAttribute('data-loaded'))
    expect(loaded).toBeGreaterThan(2)
    await page.keyboard.press('End')
    await table
      .locator(`.dense-row-focused.bp6-table-cell-row-${loaded - 1}`)
      .first()
      .waitFor()
    await page.keyboard.press('Home')
    await table.locator('.dense-row-focused.bp6-table-cell-row-0').first().waitFor()
    await page.keyboard.press('PageDown')
    const down = await focusedRow()
    expect(down).toBeGreaterThan(0)
    await page.keyboard.press('PageUp')
    await table.locator('.dense-row-focused.bp6-table-cell-row-0').first().waitFor()
    await page.keyboard.press('ArrowDown')
    await table.locator('.dense-row-focused.bp6-table-cell-row-1').first().waitFor()
  })

  it('a header sorted by Enter keeps the focus: a second Enter sorts the other way', async () => {
    await page.goto('/dataDictionary/dictionaryList')
    const table = page.locator('[data-testid="pane"][data-path="/dataDictionary/dictionaryList"]').getByTestId('indicator-table')
    await table.locator('.bp6-table-quadrant-main .bp6-table-cell').first().waitFor()
    const header = () => table.locator('[data-testid="sort-nameEn"]:visible').first()
    const focusedSort = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName)
    await header().focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => header().getAttribute('data-sort')).toBe('asc')
    await expect.poll(focusedSort).toBe('sort-nameEn')
    await page.keyboard.press('Enter')
    await expect.poll(() => header().getAttribute('data-sort')).toBe('desc')
    await expect.poll(focusedSort).toBe('sort-nameEn')
  })

  it('the size setting changes the row height and the text size', async () => {
    await page.goto('/dataDictionary/dictionaryList')
    const rowOf = async () => {
      const table = page.getByTestId('indicator-table')
      const cell = table.locator('.bp6-table-quadrant-main .bp6-table-cell').first()
      await cell.waitFor()
      return cell.evaluate((el) => ({ height: el.getBoundingClientRect().height, font: parseFloat(getComputedStyle(el).fontSize) }))
    }
    await page.locator('[data-testid="shell"].size-medium').waitFor()
    const medium = await rowOf()
    expect(medium.height).toBe(32)
    for (const [size, height] of [
      ['mini', 24],
      ['default', 36],
    ] as const) {
      await page.getByTestId('size-select').click()
      await page.getByTestId(`cmd-view.size.${size}`).click()
      await page.locator(`[data-testid="shell"].size-${size}`).waitFor()
      await page.locator(`[data-testid="indicator-table"][data-row-height="${height}"]`).waitFor()
      const row = await rowOf()
      expect(row.height).toBe(height)
      if (size === 'mini') expect(row.font).toBeLessThan(medium.font)
      else expect(row.font).toBeGreaterThan(medium.font)
    }
  })
})
