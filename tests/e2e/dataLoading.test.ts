/**
 * Issue 11 data loading, by keyboard where a keyboard can: from a project's detail the palette
 * opens data loading; a template of the project's CRF downloads; a small CSV uploads and its
 * counts show; a CSV with a bad cell is refused, names the cell and offers its error report; the
 * file button keeps the focus while a file uploads; the upload records list them; data downloads as xlsx and the download records list it. The CRF, the
 * center, the project and its subject are made through the API first.
 */
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import {
  TOKEN_COOKIE,
  adminPage,
  chooseFile,
  consoleOf,
  cookie,
  focusedTestId,
  launch,
  toastWith,
  runFromPalette,
  whileHeld,
  timeCells,
  cellsMatching,
  tabInto as tabIntoOn,
} from './browser.ts'
import { publishCrf, seedCrf, seedIndicators, seedSecondProject, seedStudy } from './seed.ts'
import { expectAxeClean } from './axe.ts'

let browser: Browser
let page: Page
let token = ''
let projectId = 0
let crfId = 0
let subjectNo = ''
let centerCode = ''
const p = `l${Date.now().toString(36)}`
const crfName = `Loading CRF ${p}`

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  const context = page.context()
  token = (await cookie(context, TOKEN_COOKIE)) ?? ''
  if (!token) throw new Error('no session cookie after sign-in')
  // ${p}_1: an integer 50–250 mmHg; ${p}_2: a date.
  const indicatorIds = await seedIndicators(token, p, 2)
  crfId = await seedCrf(token, crfName, indicatorIds)
  const study = await seedStudy(token, p, { forms: [{ templateId: crfId, versionId: await publishCrf(token, crfId) }] })
  projectId = study.projectId
  centerCode = study.centerCode
  subjectNo = study.subjects[0]!.subjectNo
  await seedSecondProject(token, p)
})
afterAll(async () => {
  await browser?.close()
})

const tabInto = (selector: string, max = 40, key: 'Tab' | 'Shift+Tab' = 'Tab') => tabIntoOn(page, selector, max, key)

const focused = () => focusedTestId(page)

const expectClean = (what: string) => expectAxeClean(page, what)

const screen = (tab?: string) => `/project/data-loading?id=${projectId}${tab ? `&tab=${tab}` : ''}`
const pane = (path: string) => page.locator(`[data-testid="pane"][data-path="${path}"]`)

/** A CSV of the CRF's main sheet: key columns, then the two fields. */
const csv = (sbp: string) => `subject_id,center,queue,${p}_1,${p}_2\r\n${subjectNo},${centerCode},A,${sbp},2026-11-01\r\n`

/** Chooses `file` through the upload panel's file button (Enter on it opens the chooser). */
async function upload(name: string, text: string) {
  await page.locator('[data-testid="upload-choose"]:not([disabled]):not(.bp6-loading)').waitFor()
  // The file button comes before the answer of the last upload: from there, go back.
  await tabInto('[data-testid="upload-choose"]', 40, 'Shift+Tab')
  await chooseFile(page, { name, mimeType: 'text/csv', buffer: Buffer.from(text) })
}

describe('data loading by keyboard', () => {
  it('the palette opens data loading of the shown project on its template tab', async () => {
    await page.goto(`/project/multi-detail?id=${projectId}`)
    await page.getByTestId('project-detail').waitFor()
    await runFromPalette(page, 'open data loading', 'dataLoad.open')
    await page.waitForURL(`**${screen()}`)
    const view = pane(screen())
    await view.getByTestId('data-loading-page').waitFor()
    await view.getByTestId('template-crfs').getByText(crfName).waitFor()
    await expectClean('data loading, template tab')
  })

  it('a template of the chosen CRF downloads as one workbook', async () => {
    const view = pane(screen())
    await tabInto(`[data-testid="template-crfs-${crfId}"]`)
    await page.keyboard.press('Space')
    await view.getByText('1 CRF chosen').waitFor()
    await tabInto('[data-testid="template-download"]')
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')])
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/)
    // The keyboard is still on the button once the file is made.
    await view.locator('[data-testid="template-download"]:not([disabled])').waitFor()
    await expect.poll(focused).toBe('template-download')
    const bytes = fs.readFileSync(await download.path())
    // An xlsx is a zip: it starts with PK.
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK')
  })

  it('a small CSV uploads and its counts show', async () => {
    await tabInto('.data-loading-page [role="tablist"]')
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('Enter')
    await page.waitForURL(`**${screen('upload')}`)
    const view = pane(screen('upload'))
    await view.getByTestId('data-loading-upload').waitFor()
    await view.locator('#upload-template').selectOption(String(crfId))
    await upload('good.csv', csv('120'))
    const done = view.getByTestId('upload-done')
    await done.waitFor()
    expect(await done.innerText()).toContain('1 row: 1 new, 0 changed, 0 unchanged, 0 subjects enrolled')
    await toastWith(page, '1 row: 1 new').waitFor()
    await expectClean('data loading, upload done')
  })

  it('a CSV with a bad cell is refused: the cell is named and the error report downloads', async () => {
    const view = pane(screen('upload'))
    await upload('bad.csv', csv('999'))
    const refused = view.getByTestId('upload-refused')
    await refused.waitFor()
    await refused.getByText('File refused: 1 bad cell, nothing was written').waitFor()
    // A CSV has no sheets: no empty sheet column.
    const errors = refused.getByTestId('upload-errors')
    expect(await errors.locator('thead th').allInnerTexts()).toEqual(['Row', 'Column', 'Value', 'Problem'])
    const cells = await errors.locator('tbody tr').first().locator('td').allInnerTexts()
    expect(cells.slice(1, 3)).toEqual([`${p}_1`, '999'])
    // Named once, as it reads (it was "Download the error report, Fetch the error report").
    await page.getByTestId('upload-refused').getByRole('button', { name: 'Download the error report', exact: true }).waitFor()
    await tabInto('[data-testid="upload-refused"] [data-testid="cmd-dataLoad.fetchReport"]')
    const [report] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')])
    expect(report.suggestedFilename()).toMatch(/\.xlsx$/)
    await expectClean('data loading, upload refused')
  })

  it('the same file again asks first, naming the earlier upload', async () => {
    const view = pane(screen('upload'))
    await upload('good-again.csv', csv('120'))
    const confirm = page.getByTestId('confirm-message')
    await confirm.getByText(/A file with the same content, good\.csv, was uploaded by /).waitFor()
    // One question: the time as the app shows times (local, to the minute), a button named as the
    // message says, and no toast of the same refusal beside it.
    expect(await confirm.innerText()).toMatch(/ at \d{4}-\d{2}-\d{2} \d{2}:\d{2}\. Choose “Upload again”/)
    await page.getByRole('button', { name: 'Upload again' }).waitFor()
    expect(await page.locator('.bp6-toast', { hasText: 'same content' }).count()).toBe(0)
    // It opens on Cancel (a reflex Enter keeps the earlier upload), and the panel says nothing is being written.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel')
    expect(await view.getByTestId('upload-stage').count()).toBe(0)
    // Escape keeps the earlier upload: nothing is sent again.
    await page.keyboard.press('Escape')
    await confirm.waitFor({ state: 'detached' })
    await view.getByTestId('upload-done').waitFor({ state: 'detached' })
  })

  it('the file button keeps the focus while the file uploads and once it is loaded', async () => {
    const view = pane(screen('upload'))
    await whileHeld(page, '**/api/scientific/dataloader/uploadFile**', 'POST', async () => {
      await upload('changed.csv', csv('130'))
      await view.getByTestId('upload-stage').waitFor()
      expect(await focused()).toBe('upload-choose')
    })
    await view.getByTestId('upload-done').waitFor()
    await expect.poll(focused).toBe('upload-choose')
  })

  it('a file dropped on the drop zone uploads like a chosen one', async () => {
    const view = pane(screen('upload'))
    const drop = view.getByTestId('upload-drop')
    // A drop of a file from the desktop, as the browser hands it over.
    const dataTransfer = await page.evaluateHandle((text) => {
      const dt = new DataTransfer()
      dt.items.add(new File([text], 'dropped.csv', { type: 'text/csv' }))
      return dt
    }, csv('140'))
    await drop.dispatchEvent('dragover', { dataTransfer })
    await expect.poll(() => drop.getAttribute('class')).toContain('is-over')
    await drop.dispatchEvent('drop', { dataTransfer })
    const done = view.getByTestId('upload-done')
    await done.getByText('1 row: 0 new, 1 changed, 0 unchanged, 0 subjects enrolled').waitFor()
    await expect.poll(() => drop.getAttribute('class')).not.toContain('is-over')
  })

  it('the upload records list both uploads, newest first', async () => {
    await runFromPalette(page, 'open upload records', 'dataLoad.openUploads')
    await page.waitForURL(`**${screen('uploads')}`)
    const table = pane(screen('uploads')).getByTestId('upload-records')
    await table.locator('.bp6-table-quadrant-main .bp6-table-cell-row-1').first().waitFor()
    const text = await table.locator('.bp6-table-quadrant-main').innerText()
    expect(text).toContain('Refused')
    expect(text).toContain('Loaded')
    // Each names the CRF its file was read into.
    expect(text.split(crfName).length - 1).toBeGreaterThanOrEqual(2)
    // The time, to the second, is shown whole, not cut short to fit the columns into the pane.
    const times = await timeCells(table)
    expect(times.length).toBeGreaterThanOrEqual(2)
    expect(times.filter((c) => c.cut)).toEqual([])
    // So is how long each took, beside the CRF's column.
    const durations = await cellsMatching(table, /^\d+(\.\d)? (ms|s)$/)
    expect(durations.length).toBeGreaterThanOrEqual(2)
    expect(durations.filter((c) => c.cut)).toEqual([])
    const sizes = await cellsMatching(table, /^\d+(\.\d)? (B|KB|MB)$/)
    expect(sizes.length).toBeGreaterThanOrEqual(2)
    expect(sizes.filter((c) => c.cut)).toEqual([])
    // Every column, the actions last, fits the pane: nothing to scroll sideways to.
    const overflow = await table
      .locator('.bp6-table-quadrant-main .bp6-table-quadrant-scroll-container')
      .evaluate((el) => el.scrollWidth - el.clientWidth)
    expect(overflow).toBeLessThanOrEqual(1)
    await expectClean('data loading, upload records')
  })

  it('data download as xlsx, and the download records list it', async () => {
    await runFromPalette(page, 'download project data', 'dataLoad.download')
    await page.waitForURL(`**${screen('download')}`)
    const view = pane(screen('download'))
    await view.getByTestId('download-crfs').waitFor()
    await tabInto(`[data-testid="download-crfs-${crfId}"]`)
    await page.keyboard.press('Space')
    await tabInto('[data-testid="download-data"]')
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')])
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/)
    await view.locator('[data-testid="download-data"]:not([disabled])').waitFor()
    await expect.poll(focused).toBe('download-data')
    await expectClean('data loading, download tab')
    // A CSV has no label row: its header language is not offered.
    await view.locator('label.bp6-radio', { hasText: 'CSV' }).click()
    expect(await view.locator('#download-lang').isDisabled()).toBe(true)
    await view.locator('label.bp6-radio', { hasText: 'Excel (xlsx)' }).click()
    expect(await view.locator('#download-lang').isDisabled()).toBe(false)

    await runFromPalette(page, 'open download records', 'dataLoad.openDownloads')
    await page.waitForURL(`**${screen('downloads')}`)
    const table = pane(screen('downloads')).getByTestId('download-records')
    await table.locator('.bp6-table-quadrant-main .bp6-table-cell-row-0').first().waitFor()
    expect(await table.locator('.bp6-table-quadrant-main').innerText()).toContain('XLSX')

    // The file again, from the row's button (the focus stays on it) and from the palette for the
    // selected row (the focus goes back to the table, where it was).
    await tabInto('[data-testid="download-records"] [data-testid="cmd-dataLoad.redownload"]')
    const [again] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')])
    expect(again.suggestedFilename()).toMatch(/\.xlsx$/)
    await expect.poll(focused).toBe('cmd-dataLoad.redownload')
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowUp')
    const inTable = () => page.evaluate(() => document.activeElement?.closest('[data-testid="download-records"]') !== null)
    expect(await inTable()).toBe(true)
    const [third] = await Promise.all([
      page.waitForEvent('download'),
      runFromPalette(page, 'download the chosen file again', 'dataLoad.redownload'),
    ])
    expect(third.suggestedFilename()).toMatch(/\.xlsx$/)
    await expect.poll(inTable).toBe(true)
    // The palette left with Escape gives the focus back too.
    await page.keyboard.press('Control+K')
    await page.getByTestId('palette-input').waitFor()
    await page.keyboard.press('Escape')
    await expect.poll(inTable).toBe(true)
  })

  it("Data List asks for a project without one, then gives way to the current project's data loading", async () => {
    await page.evaluate(() => Object.keys(localStorage).forEach((k) => k.startsWith('currentProject.') && localStorage.removeItem(k)))
    await page.goto('/data/list')
    const none = pane('/data/list').getByTestId('no-project')
    await none.getByText('Choose a current project first, or open "Data Loading" from a project\'s action menu').waitFor()
    await tabInto('[data-testid="no-project"] [data-testid="cmd-projects.switch"]')
    await page.keyboard.press('Enter')
    await page.getByTestId('palette-input').pressSequentially(`${p}-S`)
    await page.locator(`[data-testid="palette-record-project-${projectId}"][aria-selected="true"]`).waitFor()
    await page.keyboard.press('Enter')
    await page.waitForURL(`**${screen()}`)
    await pane(screen()).getByTestId('template-crfs').getByText(crfName).waitFor()
    expect(await page.locator('[data-testid="tab"][data-path="/data/list"]').count()).toBe(0)

    // With a current project the entry goes straight there.
    await runFromPalette(page, 'open upload records', 'dataLoad.openUploads')
    await page.waitForURL(`**${screen('uploads')}`)
    await runFromPalette(page, 'data list', 'go.dataList')
    await page.waitForURL(`**${screen()}`)
    await pane(screen()).getByTestId('data-loading-page').waitFor()
    expect(await page.locator('[data-testid="tab"][data-path="/data/list"]').count()).toBe(0)
  })

  it('a refusal is told, not logged as a failure; the record tables warn of nothing', async () => {
    await page.evaluate(() => Object.keys(localStorage).forEach((k) => k.startsWith('currentProject.') && localStorage.removeItem(k)))
    await page.goto('/dashboard')
    await page.getByTestId('shell').waitFor()
    await page.keyboard.press('Alt+L')
    await toastWith(page, 'Choose a project first').waitFor()
    const logs = consoleOf(page)
    expect(logs.filter((l) => l.startsWith('error: command '))).toEqual([])
    expect(logs.filter((l) => l.includes('numFrozenColumns'))).toEqual([])
  })
})
