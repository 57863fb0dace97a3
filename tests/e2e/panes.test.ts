/**
 * Issue 7 item 6, by keyboard only: two CRF previews side by side (palette and hotkeys), then
 * navigation inside the split (a go-to hotkey) replaces only the focused pane and keeps the split.
 * The CRFs and their indicators are made through the API first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPassword, cookie, launch, newPage } from './browser.ts'
import { seedCrf, seedIndicators } from './seed.ts'

let browser: Browser
let page: Page
const p = `p${Date.now().toString(36)}`
const crf = { a: { id: 0, name: `Alpha_${p}` }, b: { id: 0, name: `Beta_${p}` } }
const preview = (id: number) => `/dataDictionary/previewCRF?id=${id}`

beforeAll(async () => {
  browser = await launch()
  let context
  ;({ context, page } = await newPage(browser, { lang: 'en' }))
  // Signing in by keyboard: type, Tab, type, Enter.
  await page.goto('/login')
  await page.locator('#login-username').focus()
  await page.keyboard.type('admin')
  await page.keyboard.press('Tab')
  await page.keyboard.type(adminPassword())
  await page.keyboard.press('Enter')
  await page.getByTestId('shell').waitFor()
  const token = await cookie(context, TOKEN_COOKIE)
  if (!token) throw new Error('no session cookie after sign-in')
  crf.a.id = await seedCrf(token, crf.a.name, await seedIndicators(token, `${p}a`, 2))
  crf.b.id = await seedCrf(token, crf.b.name, await seedIndicators(token, `${p}b`, 3))
})
afterAll(async () => {
  await browser?.close()
})

/** The panes' paths as they are seen, left to right then top to bottom (react-mosaic places tiles absolutely; DOM order is not screen order). */
const panePaths = () =>
  page.getByTestId('pane').evaluateAll((els) =>
    els
      .map((e) => ({ path: e.getAttribute('data-path'), box: e.getBoundingClientRect() }))
      .sort((a, b) => a.box.left - b.box.left || a.box.top - b.box.top)
      .map((x) => x.path),
  )
const panes = (n: number) => page.locator(`[data-testid="workspace"][data-panes="${n}"]`).waitFor()
const pane = (path: string) => page.locator(`[data-testid="pane"][data-path="${path}"]`)

/** Alt+Shift+O without a CRF: the CRF picker; type the name, then Enter (or Ctrl+Enter: to the side). */
async function pickCrf(name: string, id: number, toSide: boolean) {
  await page.keyboard.press('Alt+Shift+O')
  const input = page.getByTestId('palette-input')
  await input.waitFor()
  await input.pressSequentially(name)
  await page.locator(`[data-testid="palette-record-template-${id}"][aria-selected="true"]`).waitFor()
  await page.keyboard.press(toSide ? 'Control+Enter' : 'Enter')
  await input.waitFor({ state: 'detached' })
}

describe('panes by keyboard', () => {
  it('opens two CRF previews side by side with the palette and hotkeys', async () => {
    await pickCrf(crf.a.name, crf.a.id, false)
    await page.waitForURL(new RegExp(`edit-crf-temp\\?id=${crf.a.id}\\b`))
    await page.getByTestId('designer').waitFor()
    await page.keyboard.press('Alt+Shift+V')
    await page.waitForURL(`**${preview(crf.a.id)}`)
    await panes(1)
    await pane(preview(crf.a.id)).getByTestId('template-preview').waitFor()

    // Ctrl+Enter in the picker: the designer of B in a new pane beside A's preview.
    await pickCrf(crf.b.name, crf.b.id, true)
    await panes(2)
    const [left, designerB] = await panePaths()
    expect(left).toBe(preview(crf.a.id))
    expect(designerB).toMatch(new RegExp(`edit-crf-temp\\?id=${crf.b.id}\\b`))

    // Its preview takes the focused pane's place: A's preview stays.
    await pane(designerB ?? '')
      .getByTestId('designer')
      .waitFor()
    await page.keyboard.press('Alt+Shift+V')
    await page.waitForURL(`**${preview(crf.b.id)}`)
    await panes(2)
    expect(await panePaths()).toEqual([preview(crf.a.id), preview(crf.b.id)])
    for (const id of [crf.a.id, crf.b.id]) {
      const form = pane(preview(id)).getByTestId('template-preview')
      await form.waitFor()
      expect(await form.isVisible()).toBe(true)
    }
    expect(await pane(preview(crf.a.id)).locator('[data-field]').count()).toBe(2)
    expect(await pane(preview(crf.b.id)).locator('[data-field]').count()).toBe(3)
    // Side by side, with each pane's header naming its tab and the record its view shows.
    const [boxA, boxB] = await Promise.all([pane(preview(crf.a.id)).boundingBox(), pane(preview(crf.b.id)).boundingBox()])
    expect(boxA && boxB && boxB.x >= boxA.x + boxA.width - 1 && Math.abs(boxB.y - boxA.y) < 2).toBe(true)
    // Read left to right: the mosaic may keep its windows in the document in another order than on screen.
    const titles = await page.locator('.mosaic-window').evaluateAll((windows) =>
      windows
        .map((w) => ({
          x: w.getBoundingClientRect().left,
          title: w.querySelector(':scope > .mosaic-window-toolbar .mosaic-window-title')?.textContent,
        }))
        .sort((a, b) => a.x - b.x)
        .map((w) => w.title),
    )
    expect(titles).toEqual([`Preview CRF · ${crf.a.name}`, `Preview CRF · ${crf.b.name}`])
  })

  it('a go-to hotkey inside the split replaces only the focused pane and keeps the split', async () => {
    // A mark on A's view: if the view were remounted or moved, the mark would be gone.
    await pane(preview(crf.a.id))
      .locator('.view-frame')
      .evaluate((el) => el.setAttribute('data-mark', 'kept'))
    // The form itself (the pane's command buttons follow the focus, by design).
    const fieldsOfA = () => pane(preview(crf.a.id)).locator('[data-field]').allInnerTexts()
    const before = await fieldsOfA()

    await page.keyboard.press('Alt+5')
    await page.waitForURL('**/dataDictionary/dictionaryList')
    await panes(2)
    expect(await panePaths()).toEqual([preview(crf.a.id), '/dataDictionary/dictionaryList'])
    await pane('/dataDictionary/dictionaryList').getByTestId('indicator-table').waitFor()
    expect(await pane(preview(crf.a.id)).locator('.view-frame').getAttribute('data-mark')).toBe('kept')
    expect(await fieldsOfA()).toEqual(before)
    // B's preview is still a tab, hidden.
    expect(await page.locator(`[data-testid="tab"][data-path="${preview(crf.b.id)}"]`).count()).toBe(1)

    // Focus the other pane (Alt+[) and navigate there: now only A's preview is replaced.
    await page.keyboard.press('Alt+BracketLeft')
    await page.waitForURL(`**${preview(crf.a.id)}`)
    await page.keyboard.press('Alt+6')
    await page.waitForURL('**/dataDictionary/diseaseList')
    await panes(2)
    expect(await panePaths()).toEqual(['/dataDictionary/diseaseList', '/dataDictionary/dictionaryList'])
  })

  it('the palette’s own navigation (a go-to command) also keeps the split', async () => {
    await page.keyboard.press('Control+K')
    const input = page.getByTestId('palette-input')
    await input.waitFor()
    await input.pressSequentially('CRF Manager')
    await page.locator('[data-testid="palette-go.crfManager"][aria-selected="true"]').waitFor()
    await page.keyboard.press('Enter')
    await page.waitForURL('**/dataDictionary/crf-template')
    await panes(2)
    expect(await panePaths()).toEqual(['/dataDictionary/crf-template', '/dataDictionary/dictionaryList'])
  })

  it('the tab bar is one tab stop: arrows move between tabs, Enter shows one in the focused pane, Delete closes it', async () => {
    const tabs = page.getByRole('tab')
    expect(await page.locator('[role="tab"][tabindex="0"]').count()).toBe(1)
    await page.locator('[role="tab"][tabindex="0"]').focus()
    const selected = await page.locator('[role="tab"][aria-selected="true"]').getAttribute('data-path')
    expect(selected).toBe('/dataDictionary/crf-template')
    await page.keyboard.press('Home')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-path'))).toBe(await tabs.first().getAttribute('data-path'))
    // The tab of B's preview: reach it with →, show it with Enter; it takes the focused pane.
    const paths = await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))
    const target = paths.indexOf(preview(crf.b.id))
    for (let i = 0; i < target; i++) await page.keyboard.press('ArrowRight')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-path'))).toBe(preview(crf.b.id))
    await page.keyboard.press('Enter')
    await page.waitForURL(`**${preview(crf.b.id)}`)
    await panes(2)
    expect(await panePaths()).toEqual([preview(crf.b.id), '/dataDictionary/dictionaryList'])
    await page.locator(`[role="tab"][data-path="${preview(crf.b.id)}"]`).focus()
    await page.keyboard.press('Delete')
    await page.locator(`[role="tab"][data-path="${preview(crf.b.id)}"]`).waitFor({ state: 'detached' })
    await panes(1)
  })

  it('with one pane shown, its split button covers none of the pane’s header buttons at 1280–1440 px', async () => {
    await page.keyboard.press('Alt+5')
    await page.waitForURL('**/dataDictionary/dictionaryList')
    await panes(1)
    const view = pane('/dataDictionary/dictionaryList')
    await view.getByTestId('indicator-table').waitFor()
    // The workspace's own button, not the (hidden) dashboard's of the same command.
    const split = page.locator('[data-testid="cmd-workspace.splitRight"]:not([data-testid="dashboard"] *)')
    try {
      for (const width of [1280, 1360, 1440]) {
        await page.setViewportSize({ width, height: 900 })
        const box = (await split.boundingBox())!
        const covered = await view.locator('button').evaluateAll(
          (buttons, b) =>
            buttons.flatMap((el) => {
              const r = el.getBoundingClientRect()
              const hit = r.width > 0 && r.left < b.x + b.width && r.right > b.x && r.top < b.y + b.height && r.bottom > b.y
              return hit ? [el.getAttribute('data-testid') ?? el.textContent] : []
            }),
          box,
        )
        expect(covered, `${width} px`).toEqual([])
      }
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 })
    }
  })
})
