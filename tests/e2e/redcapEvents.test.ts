/**
 * REDCap records whose event names are not the project's visit names (issue 11 item 3, events as
 * visits): on the upload tab, a REDCap file refused for an event no visit is named after turns
 * the format to REDCap and brings the event up as a pair; the user picks its visit, and the file
 * then loads into that visit. A follow-up CRF, a visit, an active project and a subject are made
 * through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPage, api, chooseFile, cookie, launch } from './browser.ts'
import { ok, publishCrf, seedCrf, seedIndicators, seedStudy } from './seed.ts'
import type { SubjectSchedule } from '../../contract/followUp.ts'

const p = `re${Date.now().toString(36)}`
const visitName = `V1 · month 3 ${p}`
let browser: Browser
let page: Page
let token = ''
let projectId = 0
let crfId = 0
let subjectId = 0
let subjectNo = ''

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  token = (await cookie(page.context(), TOKEN_COOKIE)) ?? ''
  // ${p}_1: an integer 50–250 mmHg.
  const indicatorIds = await seedIndicators(token, p, 1)
  crfId = await seedCrf(token, `Visit vitals ${p}`, indicatorIds, 'followUp')
  const study = await seedStudy(token, p, {
    forms: [{ templateId: crfId, versionId: await publishCrf(token, crfId) }],
    visits: [{ name: visitName, dayOffset: 90, windowBefore: 7, windowAfter: 7, templateIds: [crfId] }],
  })
  projectId = study.projectId
  subjectId = study.subjects[0]!.id
  subjectNo = study.subjects[0]!.subjectNo
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

const records = `record_id,redcap_event_name,${p}_1\r\n`

describe('REDCap events paired with visits on the upload tab', () => {
  it('a file refused for an event no visit is named after loads once the event is paired with its visit', async () => {
    await page.goto(`/project/data-loading?id=${projectId}&tab=upload`)
    const view = page.getByTestId('data-loading-upload')
    await view.waitFor()
    // Only the REDCap format pairs events; the format is left to be detected.
    expect(await page.locator('#upload-format').inputValue()).toBe('auto')
    expect(await page.getByTestId('upload-event-add').count()).toBe(0)

    const send = async (name: string, text: string) => {
      await page.getByTestId('upload-choose').focus()
      await chooseFile(page, { name, mimeType: 'text/csv', buffer: Buffer.from(text) })
    }
    await send('unpaired.csv', `${records}${subjectNo},month_3_arm_1,120\r\n`)
    const refused = view.getByTestId('upload-refused')
    await refused.getByText(/Event month_3_arm_1 matches no visit of the project/).waitFor()

    // The file was read as REDCap's: the format says so now, and the refused event comes up as a
    // pair to complete. Tab goes from its name to its visit.
    expect(await page.locator('#upload-format').inputValue()).toBe('redcap')
    const event = page.getByLabel('Event 1', { exact: true })
    expect(await event.inputValue()).toBe('month_3_arm_1')
    await event.focus()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Visit of event 1')
    await page.getByLabel('Visit of event 1').selectOption({ label: visitName })
    // Add event gives the focus to a new, empty pair; its remove button takes it away again.
    await page.getByTestId('upload-event-add').focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Event 2')
    await page.getByRole('button', { name: 'Remove event 2' }).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Event 1')
    expect(await page.getByLabel('Event 2', { exact: true }).count()).toBe(0)

    await send('paired.csv', `${records}${subjectNo},month_3_arm_1,121\r\n`)
    await view.getByTestId('upload-done').getByText('1 row: 1 new, 0 changed, 0 unchanged, 0 subjects enrolled').waitFor()
    // The value is the visit's: its CRF there now has a record.
    const plan = await ok<SubjectSchedule>('schedule', api('GET', `/api/projects/${projectId}/subjects/${subjectId}/visits`, { token }))
    expect(plan.visits.find((v) => v.name === visitName)?.forms).toMatchObject([
      { templateId: crfId, recordId: expect.any(Number) as number },
    ])
  })
})
