/**
 * Issue 10 item 1 in Chromium: a project's research-object list. Subjects enrolled through the
 * API show in the DenseTable; the subject-number search narrows it; Enter on a row opens the
 * subject's detail screen. Item 12: with the project current, the palette finds a subject by its
 * number, in its own search (Alt+Shift+F) and among the records of the command palette (Ctrl+K).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPage, api, cookie, launch } from './browser.ts'

let browser: Browser
let page: Page
const p = `S${Date.now().toString(36).toUpperCase()}`
let studyId = 0

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  const context = page.context()
  const token = (await cookie(context, TOKEN_COOKIE)) ?? ''
  const center = await api<{ id: number }>('POST', '/api/centers', {
    token,
    body: { code: `${p}C`, nameZh: `列表中心 ${p}`, nameEn: `List center ${p}` },
  })
  const centerId = center.body.data?.id ?? 0
  const project = await api<{ id: number; queues: { id: number }[] }>('POST', '/api/projects', {
    token,
    body: {
      scope: 'multi',
      base: {
        type: 'prospective',
        name: `Subject list ${p}`,
        number: `${p}-SL`,
        groupType: 'group',
        plannedQuantity: 50,
        plannedGroups: 2,
      },
      queues: [{ name: '队列甲', key: 'A' }],
      centerIds: [centerId],
    },
  })
  if (!project.body.data) throw new Error(`create project failed: ${project.body.msg}`)
  studyId = project.body.data.id
  await api('POST', `/api/projects/${studyId}/submit`, { token })
  await api('POST', `/api/projects/${studyId}/pass`, { token })
  for (const no of [`${p}-001`, `${p}-002`, `${p}-101`]) {
    const r = await api('POST', `/api/projects/${studyId}/subjects`, {
      token,
      body: { queueId: project.body.data.queues[0]!.id, centerId, subjectNo: no, checklist: { inclusion: [], exclusion: [] } },
    })
    if (r.body.code !== 0) throw new Error(`enrol ${no} failed: ${r.body.msg}`)
  }
})
afterAll(async () => {
  await browser?.close()
})

/** The number of the subject whose detail holds the focus; null while the focus is on the page itself. */
const focusedSubject = () =>
  page.evaluate(() => {
    const el = document.activeElement
    if (!el || el === document.body) return null
    return el.closest('[data-testid="subject-detail"]')?.querySelector('[data-testid="subject-no"]')?.textContent ?? 'elsewhere'
  })

describe('the research-object list in Chromium', () => {
  it('lists the project’s subjects, narrows by subject number and opens one with Enter', async () => {
    await page.goto(`/patient/index?studyId=${studyId}`)
    const table = page.getByTestId('subject-table')
    await table.getByText(`${p}-001`, { exact: true }).waitFor()
    await table.getByText(`${p}-101`, { exact: true }).waitFor()
    // The heading names whose subjects these are (opened by path, not as the current project).
    await page.getByRole('heading', { name: `Subject list ${p}` }).waitFor()
    await table
      .locator('.bp6-table-cell', { hasText: `List center ${p}` })
      .first()
      .waitFor()
    await page.getByTestId('subject-search').fill(`${p.toLowerCase()}-0`)
    await expect.poll(() => table.getByText(`${p}-101`, { exact: true }).count()).toBe(0)
    await table.getByText(`${p}-002`, { exact: true }).waitFor()
    await table.getByText(`${p}-001`, { exact: true }).click()
    await page.keyboard.press('Enter')
    await page.waitForURL(`**/project/patientDetail?studyId=${studyId}&id=*`)
  })

  it('finds a subject of the current project by its number from the palette, by keyboard', async () => {
    // Make the project current through its own palette (Alt+J), then look for a subject number.
    await page.keyboard.press('Alt+J')
    await page.getByTestId('palette-input').pressSequentially(`${p}-SL`)
    await page.locator(`[data-testid="palette-record-project-${studyId}"][aria-selected="true"]`).waitFor()
    await page.keyboard.press('Enter')
    await page.getByTestId('palette-input').waitFor({ state: 'detached' })

    await page.keyboard.press('Alt+Shift+F')
    await page.getByTestId('palette-input').pressSequentially(`${p}-10`)
    const hit = page.locator('[data-testid^="palette-record-subject-"][aria-selected="true"]')
    await hit.getByText(`${p}-101`).waitFor()
    await page.keyboard.press('Enter')
    await page.getByTestId('subject-no').getByText(`${p}-101`).waitFor()
    // The keyboard goes on in the subject just opened (its number: this project has no forms).
    await expect.poll(focusedSubject).toBe(`${p}-101`)

    await page.keyboard.press('Control+K')
    await page.getByTestId('palette-input').pressSequentially(`${p}-00`)
    const records = page.getByTestId('palette-records')
    await records.getByText(`${p}-001`).waitFor()
    await records.getByText(`${p}-002`).waitFor()
    expect(await records.getByText(`${p}-101`).count()).toBe(0)
    // No command matches: the first record is selected, and Enter opens that subject.
    await page.locator(`[data-testid^="palette-record-subject-"][aria-selected="true"]`).getByText(`${p}-001`).waitFor()
    await page.keyboard.press('Enter')
    await page.waitForURL(`**/project/patientDetail?studyId=${studyId}&id=*`)
    await page.getByTestId('subject-no').getByText(`${p}-001`).waitFor()
    await expect.poll(focusedSubject).toBe(`${p}-001`)
  })

  it('“open research object to the side” opens the subject chosen with Enter in a pane beside', async () => {
    await page.locator('[data-testid="workspace"][data-panes="1"]').waitFor()
    await page.keyboard.press('Control+K')
    await page.getByTestId('palette-input').pressSequentially('Open research object to the side')
    await page.locator('[data-testid="palette-subjectList.openSubjectToSide"][aria-selected="true"]').waitFor()
    await page.keyboard.press('Enter')
    await page.getByTestId('palette-input').pressSequentially(`${p}-002`)
    await page.locator('[data-testid^="palette-record-subject-"][aria-selected="true"]').getByText(`${p}-002`).waitFor()
    await page.keyboard.press('Enter')
    await page.locator('[data-testid="workspace"][data-panes="2"]').waitFor()
    for (const no of [`${p}-001`, `${p}-002`]) await page.getByTestId('subject-no').getByText(no).waitFor()
    await expect.poll(focusedSubject).toBe(`${p}-002`)
  })
})
