/**
 * Issue 9 items 1, 3, 5 and 8 in Chromium: the project lists as cards and as a table (the choice
 * remembered), search and filters, the current project drawn as the 'active' card and kept across
 * a reload, the palette finding a project by its number, the detail with its option labels, the
 * audit flow (submit, an unpass refused without a reason then given one, pass) with its history,
 * and the action menu; then a researcher who is no member applies to join the active project,
 * and someone without the project list lands on the first screen their roles grant.
 * The projects are created through the API first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPage, api, apiSignIn, cookie, launch, newPage, signIn, toastWith } from './browser.ts'

let browser: Browser
let context: BrowserContext
let page: Page
const p = `P${Date.now().toString(36).toUpperCase()}`
const ids: Record<string, number> = {}

let centerId = 0
let adminToken = ''

/** POST api/projects through the e2e server: a project with one queue and one center of the directory. */
async function createProject(token: string, scope: 'multi' | 'single', name: string, number: string, over: Record<string, unknown> = {}) {
  const res = await api<{ id: number }>('POST', '/api/projects', {
    token,
    body: {
      scope,
      base: { type: 'prospective', name, number, groupType: 'group', plannedQuantity: 120, plannedGroups: 2, ...over },
      queues: [{ name: '队列甲', key: 'A', entryCondition: '年龄 ≥ 18' }],
      centerIds: [centerId],
    },
  })
  if (res.body.code !== 0 || !res.body.data) throw new Error(`create ${number} failed: ${res.status} ${res.body.msg}`)
  ids[number] = res.body.data.id
}

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  context = page.context()
  const token = await cookie(context, TOKEN_COOKIE)
  if (!token) throw new Error('no session cookie after sign-in')
  adminToken = token
  const center = await api<{ id: number }>('POST', '/api/centers', {
    token,
    body: { code: `${p}C`, nameZh: `北京中心 ${p}`, nameEn: 'Beijing' },
  })
  centerId = center.body.data?.id ?? 0
  await createProject(token, 'multi', `Lung cohort ${p}`, `${p}-LC`, { testStage: 'II', randomMethod: 'simple' })
  await createProject(token, 'multi', `Heart study ${p}`, `${p}-HS`, { type: 'retrospective' })
  await createProject(token, 'single', `Single site ${p}`, `${p}-SS`)
})
afterAll(async () => {
  await browser?.close()
})

/** The list on screen: the other list's tab stays mounted, hidden, with its own search and cards. */
const list = (scope: 'multi' | 'single' = 'multi') => page.locator(`[data-testid="project-list"][data-scope="${scope}"]`)
const search = (scope: 'multi' | 'single' = 'multi') => list(scope).getByTestId('project-search')
const card = (number: string, scope: 'multi' | 'single' = 'multi') => list(scope).getByTestId(`project-card-${number}`)

describe('project lists in Chromium', () => {
  it('sign-in landed on the multi-center list, which shows the projects as cards with enrolled against planned', async () => {
    expect(new URL(page.url()).pathname).toBe('/project/multi-list')
    await search().fill(p)
    await card(`${p}-LC`).waitFor()
    await card(`${p}-HS`).waitFor()
    // The single-center project is on the other list only.
    await expect.poll(() => card(`${p}-SS`).count()).toBe(0)
    await card(`${p}-LC`).getByText('0 enrolled / 120 planned').waitFor()
    await card(`${p}-LC`).getByText('Simple randomization').waitFor()
    await card(`${p}-HS`).getByText('Retrospective clinical study').waitFor()
  })

  it('searches by a number prefix and filters by type', async () => {
    await search().fill(`${p}-l`)
    await expect.poll(() => card(`${p}-HS`).count()).toBe(0)
    await card(`${p}-LC`).waitFor()
    await search().fill(p)
    await list().getByTestId('project-filter-type').selectOption('retrospective')
    await expect.poll(() => card(`${p}-LC`).count()).toBe(0)
    await card(`${p}-HS`).waitFor()
    await list().getByTestId('project-filter-reset').click()
    await search().fill(p)
    await card(`${p}-LC`).waitFor()
  })

  it("the current project is drawn as the 'active' card and stays so after a reload", async () => {
    await card(`${p}-LC`).getByTestId(`project-current-${p}-LC`).click()
    await toastWith(page, `Now working in Lung cohort ${p}`).waitFor()
    await expect.poll(() => card(`${p}-LC`).getAttribute('data-active')).toBe('true')
    expect(await card(`${p}-HS`).getAttribute('data-active')).toBe('false')
    await page.reload()
    await search().fill(p)
    await expect.poll(() => card(`${p}-LC`).getAttribute('data-active')).toBe('true')
  })

  it('switches to the table view of the same list, and remembers it', async () => {
    await list().getByTestId('project-view-table').click()
    const table = list().getByTestId('project-table')
    await table.waitFor()
    await search().fill(p)
    await table.getByText(`Heart study ${p}`, { exact: true }).waitFor()
    await table.getByText(`★ Lung cohort ${p}`, { exact: true }).waitFor()
    await table.getByText('0 / 120').first().waitFor()
    await page.reload()
    await list().getByTestId('project-table').waitFor()
    await list().getByTestId('project-view-cards').click()
    await list().getByTestId('project-cards').waitFor()
  })

  it('the single-center list shows the single-center project', async () => {
    await page.goto('/project/list')
    await list('single').waitFor()
    await search('single').fill(p)
    await card(`${p}-SS`, 'single').waitFor()
    await expect.poll(() => card(`${p}-LC`, 'single').count()).toBe(0)
  })

  it('the palette finds a project by its number and opens its detail', async () => {
    await page.keyboard.press('Alt+P')
    await page.getByTestId('palette-input').pressSequentially(`${p}-h`)
    await page.locator(`[data-testid="palette-record-project-${ids[`${p}-HS`]}"][aria-selected="true"]`).waitFor()
    await page.keyboard.press('Enter')
    await page.waitForURL(`**/project/multi-detail?id=${ids[`${p}-HS`]}`)
    await page.getByTestId('project-detail').getByText(`Heart study ${p}`).first().waitFor()
  })
})

describe('project detail and the audit flow', () => {
  const detail = () => page.getByTestId('project-detail')
  const status = () => page.getByTestId('project-detail-status')

  it('shows every field with its option label in the reader language', async () => {
    await page.goto(`/project/multi-detail?id=${ids[`${p}-LC`]}`)
    await detail().waitFor()
    const facts = page.getByTestId('project-facts')
    await facts.getByText('Prospective clinical research').waitFor()
    await facts.getByText('Phase II clinical trial').waitFor()
    await facts.getByText('Group test').waitFor()
    await facts.getByText('Simple randomization').waitFor()
    await facts.getByText('Project manager').waitFor()
    await page.getByTestId('project-queues').getByText('年龄 ≥ 18').waitFor()
    await page.getByTestId('project-detail-current').waitFor()
    expect(await status().textContent()).toBe('Draft')
  })

  it('submits to audit; an unpass needs a reason; the reason shows on the detail and in the history', async () => {
    await page.getByTestId('cmd-projects.submit').click()
    await expect.poll(() => status().textContent()).toBe('In audit')

    await page.getByTestId('cmd-projects.unpass').click()
    const dialog = page.getByTestId('project-reason-dialog')
    await dialog.waitFor()
    await page.getByTestId('project-reason-confirm').click()
    await dialog.getByText('Please input a reason').waitFor()
    expect(await status().textContent()).toBe('In audit')

    await page.getByTestId('project-reason-input').fill('The consent form is missing')
    await page.getByTestId('project-reason-confirm').click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => status().textContent()).toBe('Draft')
    await page.getByTestId('project-reason').getByText('The consent form is missing').waitFor()
    const history = page.getByTestId('project-history')
    await history.getByText('Unpassed', { exact: true }).waitFor()
    await history.getByText('In audit → Draft · The consent form is missing').waitFor()
  })

  it('submitted again and passed, it is active', async () => {
    await page.getByTestId('cmd-projects.submit').click()
    await expect.poll(() => status().textContent()).toBe('In audit')
    await page.getByTestId('cmd-projects.pass').click()
    await expect.poll(() => status().textContent()).toBe('Active')
    await page.getByTestId('project-history').getByText('Passed', { exact: true }).waitFor()
    // Active: closing is offered, submitting no more.
    await page.getByTestId('cmd-projects.close').waitFor()
    expect(await page.getByTestId('cmd-projects.submit').count()).toBe(0)
  })

  it('the palette switches the current project by its number', async () => {
    await page.keyboard.press('Alt+J')
    await page.getByTestId('palette-input').pressSequentially(`${p}-h`)
    await page.locator(`[data-testid="palette-record-project-${ids[`${p}-HS`]}"][aria-selected="true"]`).waitFor()
    await page.keyboard.press('Enter')
    await toastWith(page, `Now working in Heart study ${p}`).waitFor()
    await page.goto(`/project/multi-detail?id=${ids[`${p}-HS`]}`)
    await page.getByTestId('project-detail-current').waitFor()
  })

  it('the action menu says what comes later and opens follow-up, progress and the research objects', async () => {
    await page.getByTestId('project-menu').click()
    await page.getByTestId('project-later-statistics').click()
    await page.getByTestId('project-later').getByText('Statistical analysis comes with a later release').waitFor()
    await page.getByTestId('project-menu').click()
    await page.locator('.bp6-popover').getByTestId('cmd-followUp.open').click()
    await page.waitForURL('**/project/follow-up?id=*')
    await page.getByTestId('followup-page').waitFor()
    await page.goto(`/project/multi-detail?id=${ids[`${p}-HS`]}`)
    await page.getByTestId('project-menu').click()
    // The follow-up screen stays mounted in its tab with a progress button of its own.
    await page.locator('.bp6-popover').getByTestId('cmd-followUp.openProgress').click()
    await page.waitForURL('**/project/progress?id=*')
    await page.getByTestId('progress-page').waitFor()
    await page.goto(`/project/multi-detail?id=${ids[`${p}-HS`]}`)
    await page.getByTestId('project-menu').click()
    await page.locator('.bp6-popover').getByTestId('cmd-subjectList.open').click()
    await page.waitForURL('**/patient/index?studyId=*')
  })

  it('the action menu is walked by the arrow keys: ↓ enters it, ↑ from the first wraps to the last, Home and End, Enter runs', async () => {
    await page.goto(`/project/multi-detail?id=${ids[`${p}-HS`]}`)
    await page.getByTestId('project-menu').focus()
    await page.keyboard.press('Enter')
    const menu = page.locator('.bp6-popover [role="menu"]')
    await menu.waitFor()
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.textContent)
    const steps: [string[], string][] = [
      [['ArrowDown'], 'cmd-subjectList.open'],
      [['ArrowDown'], 'cmd-followUp.open'],
      [['ArrowUp', 'ArrowUp'], 'cmd-projects.openToSide'],
      [['ArrowDown'], 'cmd-subjectList.open'],
      [['End'], 'cmd-projects.openToSide'],
      [['Home', 'ArrowDown'], 'cmd-followUp.open'],
    ]
    for (const [keys, lands] of steps) {
      for (const key of keys) await page.keyboard.press(key)
      await expect.poll(focused).toBe(lands)
    }
    await page.keyboard.press('Enter')
    await page.waitForURL('**/project/follow-up?id=*')
    await page.getByTestId('followup-page').waitFor()
  })
})

/** A person with the given system role who has changed the one-time password: signed in in a page of their own. */
async function personWithRole(roleId: number, username: string, password: string): Promise<Page> {
  const created = await api<{ password: string }>('POST', '/api/admin/users', {
    token: adminToken,
    body: { name: `Person ${username}`, username, roleIds: [roleId] },
  })
  return firstSignIn(username, created.body.data?.password ?? '', password)
}

/** A new person's first sign-in in a browser of their own, their one-time password changed to `password`. */
async function firstSignIn(username: string, oneTime: string, password: string): Promise<Page> {
  const session = await apiSignIn(username, oneTime)
  const changed = await api('POST', '/api/admin/user/changePwd', {
    token: session.token,
    body: { id: session.userId, oldPwd: oneTime, password },
  })
  expect(changed.body.code).toBe(0)
  const { page: theirs } = await newPage(browser, { lang: 'en' })
  await signIn(theirs, username, password)
  return theirs
}

describe('applying to join a project', () => {
  const username = `apply_${Date.now().toString(36)}`
  const password = 'Apply2026ok'
  let applicant: Page

  it('a researcher who is no member sees no project, and applies to the active one with a reason', async () => {
    const roles = await api<{ items: { id: number; builtin: string | null }[] }>('GET', '/api/admin/roles', { token: adminToken })
    const researcher = roles.body.data?.items.find((r) => r.builtin === 'researcher')
    if (!researcher) throw new Error('no researcher role')
    applicant = await personWithRole(researcher.id, username, password)
    expect(new URL(applicant.url()).pathname).toBe('/project/multi-list')
    const mine = applicant.locator('[data-testid="project-list"][data-scope="multi"]')
    await mine.getByTestId('project-search').fill(p)
    await mine.getByText('No project matches').waitFor()

    await applicant.goto('/project/multi-apply')
    const page = applicant.getByTestId('project-apply')
    await page.getByTestId('apply-search').fill(p)
    // Only the active project is open to apply; the drafts are not.
    await page.getByTestId(`apply-choose-${p}-LC`).click()
    expect(await page.getByTestId(`apply-choose-${p}-HS`).count()).toBe(0)
    await page.getByTestId('apply-form').waitFor()
    // The manager role is not one to wish for: the choice is left to the project manager.
    expect(await page.getByTestId('apply-role').locator('option').allTextContents()).toEqual(['Left to the project manager'])
    await page.getByTestId('apply-submit').click()
    await page.getByText('Please input the reason for applying').waitFor()
    await page.getByTestId('apply-reason').fill('I enrol the patients of my ward')
    await page.getByTestId('apply-submit').click()
    await toastWith(applicant, 'Submitted, waiting for approval').waitFor()
    await page.getByTestId('apply-pending').waitFor()
    const row = page.getByTestId('apply-mine-list').locator('tr[data-status="pending"]')
    await row.getByText(`Lung cohort ${p}`).waitFor()
    await row.getByText('Pending').waitFor()
    await row.getByText('Left to the project manager').waitFor()
  })
})

describe('landing after sign-in', () => {
  it('someone whose roles do not grant the project list lands on the first screen they may open', async () => {
    const role = await api<{ id: number }>('POST', '/api/admin/roles', {
      token: adminToken,
      body: { nameZh: `字典 ${p}`, nameEn: `Dictionary ${p}`, screens: ['dictionaryList'], permissions: ['dictionary.view'] },
    })
    const roleId = role.body.data?.id
    if (!roleId) throw new Error(`role not created: ${role.body.msg}`)
    const reader = await personWithRole(roleId, `dict_${Date.now().toString(36)}`, 'Reader2026ok')
    // Every signed-in person has the dashboard, the first screen of the menu.
    expect(new URL(reader.url()).pathname).toBe('/dashboard')
    expect(await reader.getByTestId('menu-multiList').count()).toBe(0)
  })
})

describe('a member of one project', () => {
  it('works in it from the first sign-in, without choosing it', async () => {
    const projectId = ids[`${p}-HS`]!
    const role = await api<{ id: number }>('POST', `/api/projects/${projectId}/roles`, {
      token: adminToken,
      body: { name: `Entry ${p}`, authorities: ['enterData'], allQueues: true, allCenters: true },
    })
    const roles = await api<{ items: { id: number; builtin: string | null }[] }>('GET', '/api/admin/roles', { token: adminToken })
    const entry = roles.body.data?.items.find((r) => r.builtin === 'dataEntry')
    if (!role.body.data || !entry) throw new Error(`no roles: ${role.body.msg}`)
    const username = `one_${Date.now().toString(36)}`
    const created = await api<{ userId: number; password: string }>('POST', '/api/admin/users', {
      token: adminToken,
      body: { name: `Person ${username}`, username, roleIds: [entry.id] },
    })
    const member = await api('POST', `/api/projects/${projectId}/members`, {
      token: adminToken,
      body: { userId: created.body.data?.userId, roleId: role.body.data.id },
    })
    expect(member.body.code).toBe(0)
    const theirs = await firstSignIn(username, created.body.data?.password ?? '', 'OneProject2026')
    await theirs.getByTestId(`project-card-${p}-HS`).and(theirs.locator('[data-active="true"]')).waitFor()
    await theirs.goto('/patient/index')
    await theirs.getByTestId('subject-list').waitFor()
    expect(await theirs.getByTestId('no-project').count()).toBe(0)
    await theirs.context().close()
  })
})
