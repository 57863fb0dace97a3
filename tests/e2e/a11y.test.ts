/**
 * Issue 7 item 6: every implemented screen, and the shell's overlays, pass axe-core's WCAG 2.1
 * A/AA rules with no critical or serious violation. A failure lists each rule with its targets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPassword, api, cookie, launch, newPage, signIn } from './browser.ts'
import { axeFindings, describeFindings } from './axe.ts'
import { seedCrf, seedIndicators } from './seed.ts'

let browser: Browser
let context: BrowserContext
let page: Page
let crfId = 0
let indicatorId = 0
let projectId = 0
const p = `a${Date.now().toString(36)}`

beforeAll(async () => {
  browser = await launch()
  ;({ context, page } = await newPage(browser, { lang: 'en' }))
})
afterAll(async () => {
  await browser?.close()
})

/** The page has settled: no spinner, the focused pane rendered. */
async function settled() {
  await page.waitForFunction(() => document.querySelector('.bp6-spinner, .view-spinner') === null, undefined, { timeout: 10_000 })
  await page.waitForTimeout(150)
}

async function expectClean(what: string) {
  await settled()
  const lines = describeFindings(await axeFindings(page))
  expect(lines, `${what}:\n${lines.join('\n')}`).toEqual([])
}

describe('accessibility (axe-core, WCAG 2.1 A/AA)', () => {
  it('the login page', async () => {
    await page.goto('/login')
    await page.locator('#login-username').waitFor()
    await expectClean('login')
  })

  it('signs in and seeds a CRF with a few indicators', async () => {
    await signIn(page, 'admin', adminPassword())
    const token = await cookie(context, TOKEN_COOKIE)
    if (!token) throw new Error('no session cookie after sign-in')
    const ids = await seedIndicators(token, p, 4)
    indicatorId = ids[0] ?? 0
    crfId = await seedCrf(token, `CRF ${p}`, ids)
    const project = await api<{ id: number }>('POST', '/api/projects', {
      token,
      body: {
        scope: 'multi',
        base: { type: 'prospective', name: `Project ${p}`, number: p, groupType: 'group', plannedQuantity: 50, plannedGroups: 2 },
        queues: [{ name: 'Queue A', key: 'A' }],
      },
    })
    projectId = project.body.data?.id ?? 0
    // More audit rows than the audit table shows at once: its check then covers a scrolling table.
    for (let i = 0; i < 40; i++) {
      const res = await api('PUT', `/api/dictionary/indicators/${indicatorId}/status`, { token, body: { status: i % 2 } })
      expect(res.status).toBe(200)
    }
  })

  const screens: [string, () => string, string][] = [
    ['dashboard', () => '/dashboard', 'workspace'],
    ['dictionary list', () => '/dataDictionary/dictionaryList', 'indicator-table'],
    ['disease list', () => '/dataDictionary/diseaseList', 'workspace'],
    ['fields (an indicator)', () => `/dataDictionary/fields?id=${indicatorId}`, 'workspace'],
    ['create fields', () => '/dataDictionary/createFields', 'workspace'],
    ['CRF manager', () => '/dataDictionary/crf-template', 'template-table'],
    ['subject manager', () => '/dataDictionary/subject-template', 'template-manager-group'],
    ['designer of a CRF', () => `/dataDictionary/edit-crf-temp?id=${crfId}`, 'designer'],
    ['preview of a CRF', () => `/dataDictionary/previewCRF?id=${crfId}`, 'template-preview'],
    ['a placeholder screen (research objects)', () => '/patient/index', 'workspace'],
    ['project list (cards)', () => '/project/multi-list', 'project-list'],
    ['project detail', () => `/project/multi-detail?id=${projectId}`, 'project-detail'],
    ['project applications', () => '/project/multi-apply', 'project-apply'],
    ['the user screen', () => '/management/user', 'user-list'],
    ['the account screen', () => '/management/account', 'account-list'],
    ['audit log', () => '/management/audit-log', 'audit-table'],
  ]
  for (const [what, path, testId] of screens) {
    it(what, async () => {
      await page.goto(path())
      await page.getByTestId(testId).first().waitFor()
      await expectClean(what)
    })
  }

  it('project list (table)', async () => {
    await page.goto('/project/multi-list')
    const list = page.locator('[data-testid="project-list"][data-scope="multi"]')
    await list.getByTestId('project-view-table').click()
    await list.getByTestId('project-table').waitFor()
    await expectClean('project list (table)')
    // The view is remembered: back to the cards for whoever comes next.
    await list.getByTestId('project-view-cards').click()
  })

  it('with the palette open', async () => {
    await page.keyboard.press('Control+K')
    await page.getByTestId('palette-input').waitFor()
    await expectClean('palette')
    await page.keyboard.press('Escape')
    await page.getByTestId('palette-input').waitFor({ state: 'detached' })
  })

  it('with the shortcut sheet open', async () => {
    await page.locator('body').click({ position: { x: 700, y: 880 } })
    await page.keyboard.press('Shift+/')
    await page.getByTestId('shortcuts-sheet').waitFor()
    await expectClean('shortcut sheet')
    await page.keyboard.press('Escape')
    await page.getByTestId('shortcuts-sheet').waitFor({ state: 'detached' })
  })

  it('with the change-password dialog open', async () => {
    await page.keyboard.press('Control+K')
    await page.getByTestId('palette-input').pressSequentially('change password')
    await page.locator('[data-testid="palette-account.changePassword"][aria-selected="true"]').waitFor()
    await page.keyboard.press('Enter')
    await page.locator('.bp6-dialog').waitFor()
    await expectClean('change password')
    await page.keyboard.press('Escape')
    await page.locator('.bp6-dialog').waitFor({ state: 'detached' })
  })

  it('a split of two panes', async () => {
    await page.goto('/dataDictionary/dictionaryList')
    await page.getByTestId('indicator-table').waitFor()
    await page.goto(`/dataDictionary/previewCRF?id=${crfId}`)
    await page.getByTestId('template-preview').waitFor()
    await page.keyboard.press('Control+\\')
    await page.locator('[data-testid="workspace"][data-panes="2"]').waitFor()
    await expectClean('split')
  })
})
