/**
 * The home screen's current project (a data manager's first look of the day): without one it offers
 * the choice; once chosen, its visits due and overdue today in the caller's centers and queues, and
 * the ways into its work, by keyboard. An active project with two visits (due today and in a month)
 * and two subjects enrolled today, and a second project, are made through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPage, cookie, launch, tabInto } from './browser.ts'
import { expectAxeClean } from './axe.ts'
import { publishCrf, seedCrf, seedIndicators, seedSecondProject, seedStudy } from './seed.ts'

const p = `db${Date.now().toString(36)}`
let browser: Browser
let page: Page
let projectId = 0

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  const token = (await cookie(page.context(), TOKEN_COOKIE)) ?? ''
  const crfId = await seedCrf(token, `Visit vitals ${p}`, await seedIndicators(token, p, 1), 'followUp')
  const study = await seedStudy(token, p, {
    forms: [{ templateId: crfId, versionId: await publishCrf(token, crfId) }],
    visits: [
      { name: `Day 0 ${p}`, dayOffset: 0, windowBefore: 0, windowAfter: 3, templateIds: [crfId] },
      { name: `Month 1 ${p}`, dayOffset: 30, windowBefore: 3, windowAfter: 3, templateIds: [crfId] },
    ],
    subjects: 2,
  })
  projectId = study.projectId
  await seedSecondProject(token, p)
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

const card = () => page.getByTestId('dashboard-project')

describe('the dashboard', () => {
  it('without a current project, offers to choose one; chosen by keyboard, it shows the visits due today', async () => {
    await page.evaluate(() => Object.keys(localStorage).forEach((k) => k.startsWith('currentProject.') && localStorage.removeItem(k)))
    await page.goto('/dashboard')
    await card().getByText('No current project chosen. Choose one to see its visits due today here.').waitFor()
    // The dashboard alone: the side-by-side row says how to get there instead of showing no button.
    const others = page.getByTestId('tab').filter({ hasNotText: 'Dashboard' })
    while ((await others.count()) > 0) await others.first().getByTestId('tab-close').click()
    await expect
      .poll(() => page.getByTestId('dashboard-split-hint').innerText())
      .toMatch(/^Open a second page .*, then Ctrl\+\\ shows the two side by side$/)
    expect(await page.getByTestId('dashboard').getByTestId('cmd-workspace.splitRight').count()).toBe(0)
    expect(await card().getByTestId('dashboard-visits').count()).toBe(0)
    await expectAxeClean(page, 'dashboard without a project')

    await tabInto(page, '[data-testid="dashboard-project"] [data-testid="cmd-projects.switch"]')
    await page.keyboard.press('Enter')
    await page.getByTestId('palette-input').pressSequentially(`${p}-S`)
    await page.locator(`[data-testid="palette-record-project-${projectId}"][aria-selected="true"]`).waitFor()
    await page.keyboard.press('Enter')
    await card().getByText(`Study ${p}`).waitFor()
    // Both subjects are inside Day 0's window today; Month 1 is not due yet.
    await card().getByTestId('dashboard-visits').getByText('due 2').waitFor()
    await card().getByTestId('dashboard-visits').getByText('overdue 0').waitFor()
    await expectAxeClean(page, 'dashboard with a project')
  })

  it("its Follow-up Management button opens the current project's due list", async () => {
    // The focus came back to Switch current project, after the project's buttons.
    await tabInto(page, '[data-testid="dashboard-project"] [data-testid="cmd-followUp.open"]', 10, 'Shift+Tab')
    await page.keyboard.press('Enter')
    await page.waitForURL(`**/project/follow-up?id=${projectId}`)
    const rows = page.getByTestId('followup-table-due').locator('.bp6-table-quadrant-main')
    await rows.locator('.bp6-table-cell-row-1').getByText(`Day 0 ${p}`).waitFor()
  })

  it('with a second page open, the side-by-side row offers its command', async () => {
    await page.getByTestId('tab').filter({ hasText: 'Dashboard' }).click()
    await page.getByTestId('dashboard').getByTestId('cmd-workspace.splitRight').waitFor()
    expect(await page.getByTestId('dashboard-split-hint').innerText()).toBe('Open two pages side by side to compare them')
  })
})
