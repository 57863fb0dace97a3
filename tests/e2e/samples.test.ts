/**
 * Issue 10 item 9 in Chromium, by keyboard only: on the sample list of a project that manages
 * biomaterial, a new sample by its hotkey (the subject typed by number), an aliquot of the
 * selected row by its hotkey with the aliquot tree shown, a status change from the palette
 * (destroying needs a reason), a destroyed or used sample's buttons disabled with the reason, and
 * a delete refused while the sample has an aliquot, in the server's words. The project and its subject are made through the API first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { describeFindings, axeFindings } from './axe.ts'
import {
  TOKEN_COOKIE,
  adminPassword,
  api,
  cellsMatching,
  consoleOf,
  cookie,
  focusedTestId,
  launch,
  newPage,
  timeCells,
  toastWith,
} from './browser.ts'

let browser: Browser
let page: Page
const p = `S${Date.now().toString(36).toUpperCase()}`
let projectId = 0
let subjectNo = ''
let subjectId = 0

async function ok<T>(res: Promise<{ status: number; body: { code: number; msg: string; data?: T } }>): Promise<T> {
  const r = await res
  if (r.body.code !== 0) throw new Error(`${r.status} ${r.body.msg}`)
  return r.body.data as T
}

beforeAll(async () => {
  browser = await launch()
  let context
  ;({ context, page } = await newPage(browser, { lang: 'en' }))
  await page.goto('/login')
  await page.locator('#login-username').focus()
  await page.keyboard.type('admin')
  await page.keyboard.press('Tab')
  await page.keyboard.type(adminPassword())
  await page.keyboard.press('Enter')
  await page.getByTestId('shell').waitFor()
  const token = await cookie(context, TOKEN_COOKIE)
  if (!token) throw new Error('no session cookie after sign-in')
  const center = await ok<{ id: number }>(
    api('POST', '/api/centers', { token, body: { code: `${p}C`, nameZh: `样本中心 ${p}`, nameEn: 'Sample center' } }),
  )
  const project = await ok<{ id: number; queues: { id: number }[] }>(
    api('POST', '/api/projects', {
      token,
      body: {
        scope: 'multi',
        base: {
          type: 'prospective',
          name: `Biobank ${p}`,
          number: `${p}-BB`,
          groupType: 'group',
          plannedQuantity: 10,
          plannedGroups: 2,
          manageBiomaterial: true,
        },
        queues: [{ name: 'Cohort A', key: 'A' }],
        centerIds: [center.id],
      },
    }),
  )
  projectId = project.id
  await ok(api('POST', `/api/projects/${projectId}/submit`, { token }))
  await ok(api('POST', `/api/projects/${projectId}/pass`, { token }))
  const subject = await ok<{ id: number; subjectNo: string }>(
    api('POST', `/api/projects/${projectId}/subjects`, {
      token,
      body: { queueId: project.queues[0]!.id, centerId: center.id, checklist: { inclusion: [], exclusion: [] } },
    }),
  )
  subjectNo = subject.subjectNo
  subjectId = subject.id
})
afterAll(async () => {
  await browser?.close()
})

const list = () => page.locator('[data-testid="sample-list"]:visible')
const table = () => list().getByTestId('sample-table')
const row = (no: string) => table().locator(`[data-testid="sample-row"][data-no="${no}"]`)
/** A cell of the table's body showing exactly `text`. */
const cell = (text: string) =>
  table()
    .locator('.bp6-table-quadrant-main .bp6-table-cell')
    .filter({ hasText: new RegExp(`^${text}$`) })
    .first()
const active = () => page.evaluate(() => document.activeElement?.id ?? '')

/** From the subject's detail, New sample by its hotkey: the subject filled in, a type chosen, saved by `enter` in the last field. */
async function newSampleFromDetail(enter: () => Promise<void>) {
  await page.goto(`/project/patientDetail?studyId=${projectId}&id=${subjectId}`)
  const detail = page.getByTestId('subject-detail')
  await detail.waitFor()
  await detail.getByTestId('cmd-dataEntry.previousSubject').focus()
  await page.keyboard.press('Alt+Shift+J')
  await page.getByTestId('sample-dialog').waitFor()
  expect(await page.getByTestId('sample-subjectNo').inputValue()).toBe(subjectNo)
  await page.keyboard.press('Tab') // sample number: generated
  await page.keyboard.press('Tab')
  await expect.poll(active).toBe('sample-type')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Tab') // collected at, left empty
  await enter()
}
const focusInSampleList = () =>
  page.evaluate(() => document.activeElement?.closest('[data-testid="sample-list"]')?.getClientRects().length ?? 0)

describe('the sample list in Chromium, by keyboard', () => {
  it('makes a new sample with its hotkey, typing the subject number', async () => {
    await page.goto(`/sample/index?studyId=${projectId}`)
    await list().waitFor()
    await list().getByText('No samples').waitFor()
    // The search box says what it searches whole ('Search by sample number prefix', not '… num').
    const search = list().getByTestId('sample-search')
    expect(await search.getAttribute('placeholder')).toBe('Search by sample number prefix')
    const room = await search.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input)
      const ctx = document.createElement('canvas').getContext('2d')!
      ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
      const inner = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      return { text: ctx.measureText(input.placeholder).width, inner }
    })
    expect(room.text).toBeLessThanOrEqual(room.inner)
    await page.keyboard.press('Alt+Shift+J')
    await page.getByTestId('sample-dialog').waitFor()
    await expect.poll(active).toBe('sample-subjectNo')
    await page.keyboard.type(subjectNo.toLowerCase())
    // Saving without a type is refused before any call.
    await page.keyboard.press('Enter')
    await page.getByText('Please select Sample type').waitFor()
    await page.keyboard.press('Tab') // sample number: left empty, generated
    await page.keyboard.press('Tab') // type
    await expect.poll(active).toBe('sample-type')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    expect(await page.locator('#sample-type').inputValue()).toBe('serum')
    await page.keyboard.press('Tab')
    // Ctrl+; enters the present minute, as in a form's date field; then typed over.
    await page.keyboard.press('Control+;')
    expect(await page.locator('#sample-collectedAt').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
    await page.keyboard.press('Control+A')
    // Typed as a Chinese system spells it; saved in the list's own format.
    await page.keyboard.type('2026/11/20 8:30')
    await page.keyboard.press('Tab')
    await page.keyboard.type('2.5')
    await page.keyboard.press('Tab')
    await page.keyboard.press('ArrowDown') // mL
    await page.keyboard.press('Tab')
    await page.keyboard.type('F1')
    await page.keyboard.press('Tab') // rack and box left empty
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await page.keyboard.type('A1')
    await page.keyboard.press('Enter')
    await toastWith(page, `Sample ${subjectNo}-S1 created`).waitFor()
    await page.getByTestId('sample-dialog').waitFor({ state: 'detached' })
    await row(`${subjectNo}-S1`).waitFor()
    await cell('2.5 mL').waitFor()
    await cell('Serum').waitFor()
    await cell('2026-11-20 08:30').waitFor()
    // Fourteen columns in the pane: the times (collected, updated) are shown whole, the table scrolls sideways.
    const times = await timeCells(table())
    expect(times.length).toBeGreaterThanOrEqual(2)
    expect(times.filter((c) => c.cut)).toEqual([])
    // The location keeps its four places, an empty one as —: A1 is the position, not the rack. Whole.
    expect(await cellsMatching(table(), /^F1 \//)).toEqual([{ text: 'F1 / — / — / A1', cut: false }])
    expect(await cellsMatching(table(), /^[\d.]+ mL$/)).toEqual([{ text: '2.5 mL', cut: false }])
  })

  it('makes an aliquot of the selected row with its hotkey, and shows the aliquot tree', async () => {
    // Tab lands on the table; the first row becomes the selected one.
    await table().locator('.bp6-table-container').first().focus()
    await table().locator('.dense-row-focused').first().waitFor()
    await page.keyboard.press('Alt+Shift+G')
    await page.getByTestId('sample-dialog').waitFor()
    await page.getByText(`New aliquot of ${subjectNo}-S1`).waitFor()
    // The type is the parent's and cannot change.
    expect(await page.locator('#sample-type').isDisabled()).toBe(true)
    await expect.poll(active).toBe('sample-sampleNo')
    await page.keyboard.press('Tab') // collected at (the type select is disabled)
    await page.keyboard.press('Tab')
    await page.keyboard.type('0.5')
    await page.keyboard.press('Enter')
    await toastWith(page, `Sample ${subjectNo}-S1-1 created`).waitFor()
    await row(`${subjectNo}-S1-1`).waitFor()
    const tree = list().getByTestId('sample-tree')
    await tree.getByText(`${subjectNo}-S1-1 · Serum · Available · 0.5 mL`).waitFor()
  })

  it('changes a status from the palette; destroying needs a reason', async () => {
    await table().locator('.bp6-table-container').first().focus()
    await page.keyboard.press('Home')
    await page.keyboard.press('ArrowDown')
    await table().locator('.dense-row-focused.bp6-table-cell-row-1').first().waitFor()
    await page.keyboard.press('Control+K')
    await page.getByTestId('palette-input').pressSequentially('change sample status')
    await page.locator('[data-testid="palette-samples.setStatus"][aria-selected="true"]').waitFor()
    await page.keyboard.press('Enter')
    await page.getByTestId('sample-status-dialog').waitFor()
    await page.getByText(`Change the status of sample ${subjectNo}-S1-1`).waitFor()
    // The focus starts on the sample's status, so the arrows change it at once.
    await expect.poll(() => focusedTestId(page)).toBe('sample-status-available')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    expect(await page.getByTestId('sample-status-destroyed').isChecked()).toBe(true)
    // Reason left empty, then Cancel, then Save.
    await page.keyboard.press('Tab')
    await expect.poll(active).toBe('sample-reason')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await page.getByText('Destroying a sample needs a reason').waitFor()
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Shift+Tab')
    await expect.poll(active).toBe('sample-reason')
    await page.keyboard.type('Haemolysed')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await toastWith(page, `Sample ${subjectNo}-S1-1: status set to Destroyed`).waitFor()
    await cell('Destroyed').waitFor()
  })

  it('a destroyed sample offers neither New aliquot nor a status change, and its buttons say why', async () => {
    // The destroyed aliquot is the selected row: the palette shows both commands disabled, the hotkey does nothing.
    await table().locator('.dense-row-focused.bp6-table-cell-row-1').first().waitFor()
    await page.keyboard.press('Control+K')
    await page.getByTestId('palette-input').pressSequentially('sample')
    for (const id of ['samples.newAliquot', 'samples.setStatus'])
      expect(await page.getByTestId(`palette-${id}`).getAttribute('aria-disabled'), id).toBe('true')
    await page.keyboard.press('Escape')
    await table().locator('.bp6-table-container').first().focus()
    await page.keyboard.press('Alt+Shift+G')
    await page.waitForTimeout(300)
    expect(await page.getByTestId('sample-dialog').count()).toBe(0)
    const button = (rowIndex: number, id: string) => table().locator(`.bp6-table-cell-row-${rowIndex} [data-testid="cmd-${id}"]`)
    expect(await button(1, 'samples.newAliquot').getAttribute('title')).toBe('The sample is destroyed: it cannot be aliquoted')
    expect(await button(1, 'samples.setStatus').getAttribute('title')).toBe('The sample is destroyed: its status can no longer change')
    expect(await button(1, 'samples.newAliquot').getAttribute('aria-disabled')).toBe('true')

    // Marked used by its row's button, the parent keeps its status button (used may become available again) but not New aliquot.
    expect(await button(0, 'samples.newAliquot').getAttribute('aria-disabled')).toBeNull()
    await button(0, 'samples.setStatus').focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('sample-status-dialog').waitFor()
    await page.keyboard.press('ArrowDown')
    expect(await page.getByTestId('sample-status-used').isChecked()).toBe(true)
    await page.getByTestId('sample-status-save').focus()
    await page.keyboard.press('Enter')
    await toastWith(page, `Sample ${subjectNo}-S1: status set to Used`).waitFor()
    await expect.poll(() => button(0, 'samples.newAliquot').getAttribute('title')).toBe('The sample is used: it cannot be aliquoted')
    expect(await button(0, 'samples.setStatus').getAttribute('aria-disabled')).toBeNull()

    // Destroyed by its row's button, which the dialog gives the focus back to: disabled now, it keeps the focus.
    await page.keyboard.press('Enter')
    await page.getByTestId('sample-status-dialog').waitFor()
    await page.keyboard.press('ArrowDown')
    expect(await page.getByTestId('sample-status-destroyed').isChecked()).toBe(true)
    await page.keyboard.press('Tab')
    await page.keyboard.type('Thawed twice')
    await page.getByTestId('sample-status-save').focus()
    await page.keyboard.press('Enter')
    await toastWith(page, `Sample ${subjectNo}-S1: status set to Destroyed`).waitFor()
    await expect.poll(() => button(0, 'samples.setStatus').getAttribute('aria-disabled')).toBe('true')
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('title')))
      .toBe('The sample is destroyed: its status can no longer change')
    await page.keyboard.press('Enter')
    await page.waitForTimeout(300)
    expect(await page.getByTestId('sample-status-dialog').count()).toBe(0)
  })

  it('a delete of a sample with an aliquot is refused in the server’s words', async () => {
    await table().locator('.bp6-table-container').first().focus()
    await page.keyboard.press('Home')
    await table().locator('.dense-row-focused.bp6-table-cell-row-0').first().waitFor()
    await page.keyboard.press('Control+K')
    await page.getByTestId('palette-input').pressSequentially('delete sample')
    await page.locator('[data-testid="palette-samples.delete"][aria-selected="true"]').waitFor()
    await page.keyboard.press('Enter')
    await page.getByText(`Delete sample ${subjectNo}-S1?`).waitFor()
    // Enter answers yes once the confirm button has the focus.
    await page.locator('.bp6-alert-footer .bp6-intent-danger:focus').waitFor()
    await page.keyboard.press('Enter')
    await toastWith(page, 'The sample has 1 aliquot: it cannot be deleted').waitFor()
    await row(`${subjectNo}-S1`).waitFor()
  })

  it('passes axe-core (WCAG 2.1 A/AA) with rows, the tree and the edit dialog open', async () => {
    const clean = async (what: string) => {
      const lines = describeFindings(await axeFindings(page))
      expect(lines, `${what}:\n${lines.join('\n')}`).toEqual([])
    }
    await list().getByTestId('sample-tree').waitFor()
    await clean('sample list')
    await table().locator('.bp6-table-container').first().focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('sample-dialog').waitFor()
    await page.getByText(`Edit sample ${subjectNo}-S1`).waitFor()
    await clean('sample dialog')
    await page.keyboard.press('Escape')
    await page.getByTestId('sample-dialog').waitFor({ state: 'detached' })
  })

  it('a deleted selected sample is not asked for again (its aliquot tree)', async () => {
    await page.keyboard.press('Escape')
    await table().locator('.bp6-table-container').first().focus()
    await page.keyboard.press('Home')
    await page.keyboard.press('ArrowDown')
    await table().locator('.dense-row-focused.bp6-table-cell-row-1').first().waitFor()
    await page.keyboard.press('Control+K')
    await page.getByTestId('palette-input').pressSequentially('delete sample')
    await page.locator('[data-testid="palette-samples.delete"][aria-selected="true"]').waitFor()
    await page.keyboard.press('Enter')
    await page.getByText(`Delete sample ${subjectNo}-S1-1?`).waitFor()
    await page.locator('.bp6-alert-footer .bp6-intent-danger:focus').waitFor()
    await page.keyboard.press('Enter')
    await toastWith(page, `Sample ${subjectNo}-S1-1 deleted`).waitFor()
    await row(`${subjectNo}-S1-1`).waitFor({ state: 'detached' })
    await page.waitForLoadState('networkidle')
    expect(
      consoleOf(page).filter((l) => /404|\/tree/.test(l)),
      consoleOf(page).join('\n'),
    ).toEqual([])
  })

  it("a new sample from the subject's detail leaves the focus in the sample list it opened, not on the page", async () => {
    await newSampleFromDetail(() => page.keyboard.press('Enter'))
    await toastWith(page, `Sample ${subjectNo}-S2 created`).waitFor()
    await page.getByTestId('sample-dialog').waitFor({ state: 'detached' })
    await expect.poll(focusInSampleList).toBeGreaterThan(0)
  })

  // A person's Enter lasts a tenth of a second or so; the save answers sooner. Blueprint's buttons
  // click on the key's release, so the button given the focus back (here New sample) was clicked
  // by the Enter that saved: a second dialog opened.
  it('an Enter still held when the dialog it saved has closed clicks nothing', async () => {
    await newSampleFromDetail(() => page.keyboard.down('Enter'))
    await toastWith(page, `Sample ${subjectNo}-S3 created`).waitFor()
    await page.getByTestId('sample-dialog').waitFor({ state: 'detached' })
    await expect.poll(focusInSampleList).toBeGreaterThan(0)
    await page.keyboard.up('Enter')
    await page.waitForTimeout(300)
    expect(await page.getByTestId('sample-dialog').count()).toBe(0)
  })

  it('an Enter held from the palette does not answer the question its command asks', async () => {
    await table().locator('[data-testid="sample-row"]').first().waitFor()
    await table().locator('.bp6-table-container').first().focus()
    await page.keyboard.press('Home')
    const selected = await table().locator('.dense-row-focused [data-testid="sample-row"]').first().getAttribute('data-no')
    await page.keyboard.press('Control+K')
    await page.getByTestId('palette-input').pressSequentially('delete sample')
    await page.locator('[data-testid="palette-samples.delete"][aria-selected="true"]').waitFor()
    await page.keyboard.down('Enter')
    await page.locator('.bp6-alert-footer .bp6-intent-danger:focus').waitFor()
    await page.keyboard.up('Enter')
    await page.waitForTimeout(300)
    expect(await page.locator('.bp6-alert').count()).toBe(1)
    await page.keyboard.press('Escape')
    await page.locator('.bp6-alert').waitFor({ state: 'detached' })
    await row(selected ?? '').waitFor()
  })

  it('the sample table warns of nothing in the console', () => {
    expect(consoleOf(page).filter((l) => l.includes('numFrozenColumns'))).toEqual([])
  })
})
