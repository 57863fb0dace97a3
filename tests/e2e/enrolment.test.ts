/**
 * Issue 10 item 2 in Chromium, keyboard only: the "new research object" hotkey opens the
 * enrolment dialog on the project the screen shows; an unmet inclusion condition is refused by
 * the server with its message and the dialog stays; answered, the subject is enrolled and its
 * detail opens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { adminPage, api, cookie, launch, toastWith, TOKEN_COOKIE } from './browser.ts'
import { axeFindings, describeFindings } from './axe.ts'

let browser: Browser
let context: BrowserContext
let page: Page
const p = `E${Date.now().toString(36).toUpperCase()}`
let projectId = 0

async function ok<T>(answer: Promise<{ status: number; body: { code: number; msg: string; data?: T } }>, what: string): Promise<T> {
  const res = await answer
  if (res.body.code !== 0) throw new Error(`${what}: ${res.status} ${res.body.msg}`)
  return res.body.data as T
}

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  context = page.context()
  const token = (await cookie(context, TOKEN_COOKIE)) ?? ''
  const center = await ok(
    api<{ id: number }>('POST', '/api/centers', { token, body: { code: `${p}C`, nameZh: `北京中心 ${p}`, nameEn: `Beijing ${p}` } }),
    'center',
  )
  const project = await ok(
    api<{ id: number }>('POST', '/api/projects', {
      token,
      body: {
        scope: 'multi',
        base: { type: 'prospective', name: `Enrolment ${p}`, number: `${p}-EN`, groupType: 'group', plannedQuantity: 50, plannedGroups: 2 },
        queues: [{ name: 'Cohort A', key: 'A', entryCondition: 'Age ≥ 18\nInformed consent signed', excludeCondition: 'Pregnant' }],
        centerIds: [center.id],
      },
    }),
    'project',
  )
  projectId = project.id
  await ok(api('POST', `/api/projects/${projectId}/submit`, { token }), 'submit')
  await ok(api('POST', `/api/projects/${projectId}/pass`, { token }), 'pass')
})
afterAll(async () => {
  await browser?.close()
})

describe('enrolment in Chromium, keyboard only', () => {
  it('refuses an unmet inclusion condition, then enrols and opens the subject', async () => {
    await page.goto(`/patient/index?studyId=${projectId}`)
    await page.getByTestId('shell').waitFor()
    await page.keyboard.press('Alt+Shift+E')
    const dialog = page.getByTestId('enrol-dialog')
    await dialog.waitFor()
    // The queue picker has the focus; the one center is taken without asking.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('enrol-queue')
    await page.keyboard.press('ArrowDown')
    await dialog.getByText('Age ≥ 18').waitFor()
    const findings = describeFindings(await axeFindings(page))
    expect(findings, findings.join('\n')).toEqual([])
    await page.keyboard.press('Tab') // center
    await page.keyboard.press('Tab') // inclusion 1
    await page.keyboard.press('Space')
    await page.keyboard.press('Tab') // inclusion 2, left unchecked
    await page.keyboard.press('Tab') // exclusion
    await page.keyboard.press('Tab') // number
    // A number too long is refused before sending: the keyboard goes back to it, which says why.
    await page.keyboard.type('N'.repeat(51))
    await page.keyboard.press('Tab') // cancel
    await page.keyboard.press('Tab') // enrol
    await page.keyboard.press('Enter')
    await dialog.locator('.bp6-form-helper-text', { hasText: 'cannot be longer than 50 characters' }).waitFor()
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('enrol-number')
    await page.keyboard.press('Control+A')
    await page.keyboard.type(`${p}-001`)
    await page.keyboard.press('Tab') // cancel
    await page.keyboard.press('Tab') // enrol
    await page.keyboard.press('Enter')
    await toastWith(page, 'Informed consent signed').waitFor()
    expect(await dialog.isVisible()).toBe(true)
    // The refusal leaves the keyboard in the dialog, on the button it pressed.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('enrol-submit')

    await page.keyboard.press('Shift+Tab') // cancel
    await page.keyboard.press('Shift+Tab') // number
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Space')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await toastWith(page, `${p}-001 enrolled`).waitFor()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => new URL(page.url()).pathname).toBe('/project/patientDetail')
    const query = new URL(page.url()).searchParams
    expect(query.get('studyId')).toBe(String(projectId))
    expect(Number(query.get('id'))).toBeGreaterThan(0)
  })
})
