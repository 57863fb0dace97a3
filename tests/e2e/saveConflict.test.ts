/**
 * Two people saving one form (issue 10 item 6), in two browsers: the second save is told that
 * someone else saved meanwhile, sees both values of every field that differs, chooses field by
 * field by keyboard (their pressure, my date), and saves what was chosen; nothing is overwritten
 * unseen. A CRF of two fields, an active project and a subject are made through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPage, api, cookie, launch, toastWith } from './browser.ts'
import { ok, publishCrf, seedCrf, seedIndicators, seedStudy } from './seed.ts'
import { axeFindings, describeFindings } from './axe.ts'

const p = `SC${Date.now().toString(36).slice(-5).toUpperCase()}`
let browser: Browser
let first: Page
let second: Page
let token = ''
let projectId = 0
let subjectId = 0
let crfId = 0
let fieldIds: number[] = []

beforeAll(async () => {
  browser = await launch()
  first = await adminPage(browser)
  second = await adminPage(browser)
  token = (await cookie(first.context(), TOKEN_COOKIE)) ?? ''
  // ${p}_1: an integer 50–250 mmHg; ${p}_2: a date.
  fieldIds = await seedIndicators(token, p, 2)
  crfId = await seedCrf(token, `Vitals ${p}`, fieldIds)
  const study = await seedStudy(token, p, { forms: [{ templateId: crfId, versionId: await publishCrf(token, crfId) }] })
  projectId = study.projectId
  subjectId = study.subjects[0]!.id
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

const input = (page: Page, n: number) => page.locator(`[data-testid="field-${p}_${n}"] input`).first()
const saveState = (page: Page) => page.getByTestId('save-state').getAttribute('data-state')

describe('two people saving one form', () => {
  it('the second is shown both values of each differing field, chooses by keyboard, and saves the choice', async () => {
    for (const page of [first, second]) {
      await page.goto(`/project/patientDetail?studyId=${projectId}&id=${subjectId}`)
      await expect.poll(() => saveState(page)).toBe('empty')
    }
    // The first person enters the pressure and saves.
    await input(first, 1).fill('120')
    await first.keyboard.press('Control+S')
    await toastWith(first, 'Save success').waitFor()

    // The second, who opened the empty form before, enters a pressure and a date and saves.
    await input(second, 1).fill('130')
    await input(second, 2).fill('2026-11-01')
    await input(second, 2).press('Control+S')
    await expect.poll(() => saveState(second)).toBe('conflict')
    const choices = second.getByTestId('conflict-choices')
    await choices.waitFor()
    const pressure = choices.getByTestId(`conflict-f${fieldIds[0]}`)
    expect(await pressure.getAttribute('data-differs')).toBe('true')
    expect(await pressure.innerText()).toContain('130')
    expect(await pressure.innerText()).toContain('120')
    expect(await choices.getByTestId(`conflict-f${fieldIds[1]}`).getAttribute('data-differs')).toBe('true')

    // The focus starts on the first differing field's choice ('keep mine'); → takes theirs.
    const focused = () => second.evaluate(() => document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid'))
    await expect.poll(focused).toBe(`conflict-f${fieldIds[0]}-mine`)
    expect(describeFindings(await axeFindings(second))).toEqual([])
    await second.keyboard.press('ArrowRight')
    expect(await choices.getByTestId(`conflict-f${fieldIds[0]}-theirs`).isChecked()).toBe(true)
    await second.getByTestId('conflict-apply').click()
    await choices.waitFor({ state: 'detached' })
    expect(await input(second, 1).inputValue()).toBe('120')
    expect(await input(second, 2).inputValue()).toBe('2026-11-01')

    // Saved again on the record the first person made: only the date is new, so no reason is asked.
    await input(second, 2).press('Control+S')
    await expect.poll(() => saveState(second)).toBe('saved')
    const stored = await ok<{ values: Record<string, string>; record: { rev: number } }>(
      'form',
      api('GET', '/api/scientific/form/getOneFormInfo', {
        token,
        query: { studyId: String(projectId), objectId: String(subjectId), templateId: String(crfId) },
      }),
    )
    expect(stored.values).toEqual({ [fieldIds[0]!]: '120', [fieldIds[1]!]: '2026-11-01' })
    expect(stored.record.rev).toBe(2)
  })
})
