/**
 * Issue 9, the wizard and the edit page by keyboard only: a multi-center project is created
 * through the four wizard steps (basic info, queue info with two queues, index info with a
 * published CRF pinned, center info with a center of the directory and one made inline), with a
 * reload in the middle that continues from the draft. On the edit page a queue is edited and saved
 * with the save-tab key, the pinned CRF is upgraded to its newer published version (explicit and
 * confirmed), the base and center tabs save on their own, and on the member tab a project role is
 * made and a member added with it; on the config tab an emptied group ratio is asked for, and a randomization plan is saved and its list
 * generated, the focus staying on each button. A single-center project picks exactly one center. The CRF, one
 * center and the new member's user are made through the API first. Every screen and tab passes
 * axe. Submitting and passing the audit go through the detail page's buttons (the list piece).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPage, api, apiSignIn, cookie, launch, newPage, signIn, toastWith, runFromPalette } from './browser.ts'
import { expectAxeClean } from './axe.ts'
import { seedCrf, seedIndicators } from './seed.ts'

let browser: Browser
let page: Page
let token = ''
let projectId = 0
let crfId = 0
let indicatorIds: number[] = []
const p = `w${Date.now().toString(36)}`
const crfName = `CRF ${p}`
const centerCode = `C${p}`.slice(0, 12).toUpperCase()
const newCode = `N${p}`.slice(0, 12).toUpperCase()
const projectName = `Lung study ${p}`

interface Detail {
  id: number
  name: string
  number: string
  scope: string
  plannedQuantity: number
  plannedGroups: number
  groupType: string
  queues: { id: number; name: string; key: string; entryCondition: string }[]
  centers: { code: string }[]
  forms: { name: string; version: number }[]
}

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  const context = page.context()
  token = (await cookie(context, TOKEN_COOKIE)) ?? ''
  if (!token) throw new Error('no session cookie after sign-in')
  indicatorIds = await seedIndicators(token, p, 2)
  crfId = await seedCrf(token, crfName, indicatorIds)
  await publish()
  const user = await api('POST', '/api/admin/users', { token, body: { name: `Dr ${p}`, username: `u${p}` } })
  if (user.body.code !== 0) throw new Error(`user: ${user.status} ${user.body.msg}`)
  const center = await api('POST', '/api/centers', {
    token,
    body: { code: centerCode, nameZh: `中心${p}`, nameEn: `Center ${p}`, region: 'Beijing' },
  })
  if (center.body.code !== 0) throw new Error(`center: ${center.status} ${center.body.msg}`)
})
afterAll(async () => {
  await browser?.close()
})

async function publish() {
  const published = await api('POST', '/api/scientific/form/saveCrfFormGenerateToDb', { token, query: { id: String(crfId) } })
  if (published.body.code !== 0) throw new Error(`publish: ${published.status} ${published.body.msg}`)
}

const focusedTestId = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)

const expectClean = (what: string) => expectAxeClean(page, what)

/** The wizard keeps its draft a moment after the last key: wait until it is in storage. */
async function draftStored(predicate: string) {
  await page.waitForFunction(
    (needle) => Object.keys(localStorage).some((k) => k.startsWith('projectDraft.') && localStorage.getItem(k)!.includes(needle)),
    predicate,
  )
}

describe('a multi-center project set up by keyboard', () => {
  it('basic info: every field by keyboard; the step refuses to move on while something is missing', async () => {
    await page.goto('/project/multi-add')
    await page.getByTestId('project-wizard').waitFor()
    expect(await page.getByTestId('wizard-step-title').textContent()).toBe('Step 1 of 4: Basic info')
    // The first field has the focus.
    await expect.poll(focusedTestId).toBe('base-type')
    await expectClean('wizard, basic info')

    // Moving on with nothing entered names the missing fields, in English.
    await page.keyboard.press('Alt+PageDown')
    await toastWith(page, 'Please correct the marked fields first').waitFor()
    expect(await page.getByTestId('wizard-step-title').textContent()).toBe('Step 1 of 4: Basic info')
    expect(await page.locator('#wizard-name-error').textContent()).toBe('Please input Project name')
    expect(await page.locator('#wizard-type-error').textContent()).toBe('Please select Project type')
    // The focus goes to the first field to correct.
    expect(await focusedTestId()).toBe('base-type')

    await page.keyboard.press('ArrowDown') // Prospective clinical research
    await page.keyboard.press('Tab')
    await page.keyboard.type(projectName)
    await page.keyboard.press('Tab')
    await page.keyboard.type(`LS-${p}`)
    await page.getByTestId('base-groupType').focus()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown') // Group test
    expect(await page.getByTestId('base-groupType').inputValue()).toBe('group')
    await page.getByTestId('base-plannedQuantity').focus()
    await page.keyboard.type('0')
    await page.keyboard.press('Tab')
    await page.keyboard.type('1')
    // A planned quantity of 0 and one group for a group test: each field's message.
    await expect.poll(() => page.locator('#wizard-plannedQuantity-error').textContent()).toBe('Planned entry quantity is at least 1')
    await expect.poll(() => page.locator('#wizard-plannedGroups-error').textContent()).toBe('A group test plans at least 2 groups')
    await page.keyboard.press('Alt+PageDown')
    expect(await page.getByTestId('wizard-step-title').textContent()).toBe('Step 1 of 4: Basic info')
    // The focus is back on the first field to correct.
    await expect.poll(focusedTestId).toBe('base-plannedQuantity')
    await page.keyboard.press('ControlOrMeta+A')
    await page.keyboard.type('120')
    await page.keyboard.press('Tab')
    await page.keyboard.press('ControlOrMeta+A')
    await page.keyboard.type('2')
    await page.keyboard.press('Alt+PageDown')
    await expect.poll(() => page.getByTestId('wizard-step-title').textContent()).toBe('Step 2 of 4: Queue info')
  })

  it('queue info starts with one empty queue; a second is added with its key; a reload continues from the draft', async () => {
    expect(await page.getByTestId('queue-card').count()).toBe(1)
    await expect.poll(focusedTestId).toBe('queue-name')
    await page.keyboard.type('Arm A')
    await page.keyboard.press('Tab')
    await page.keyboard.type('armA')
    await page.keyboard.press('Tab')
    await page.keyboard.type('Adults with NSCLC')
    await page.keyboard.press('Alt+Shift+K')
    await expect.poll(() => page.getByTestId('queue-card').count()).toBe(2)
    expect(await page.evaluate(() => document.activeElement === document.querySelectorAll('[data-testid="queue-name"]')[1])).toBe(true)
    await page.keyboard.type('Arm B')
    await page.keyboard.press('Tab')
    // The same key twice is refused before anything is sent.
    await page.keyboard.type('ARMA')
    await page.keyboard.press('Alt+PageDown')
    await page.getByText('Queue key ARMA is used twice').waitFor()
    await page.keyboard.press('ControlOrMeta+A')
    await page.keyboard.type('armB')
    await draftStored('armB')

    await page.reload()
    await page.getByTestId('project-wizard').waitFor()
    await page.getByTestId('draft-restored').waitFor()
    expect(await page.getByTestId('wizard-step-title').textContent()).toBe('Step 2 of 4: Queue info')
    expect(await page.getByTestId('queue-name').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual([
      'Arm A',
      'Arm B',
    ])
    expect(await page.getByTestId('queue-key').nth(1).inputValue()).toBe('armB')
    await page.keyboard.press('Alt+PageUp')
    await expect.poll(() => page.getByTestId('base-name').inputValue()).toBe(projectName)
    await page.keyboard.press('Alt+PageDown')
    await page.keyboard.press('Alt+PageDown')
    await expect.poll(() => page.getByTestId('wizard-step-title').textContent()).toBe('Step 3 of 4: Index info')
  })

  it('index info pins the published CRF to its version', async () => {
    await page.getByTestId('forms-filter-crf').focus()
    await page.keyboard.type(p)
    const row = page.locator('[data-testid="forms-crf"] [data-testid="form-row"]', { hasText: crfName })
    await row.waitFor()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Space')
    await expect.poll(() => row.getByTestId('form-version').inputValue()).not.toBe('')
    expect(await row.getByTestId('form-version').locator('option:checked').textContent()).toBe('v1')
    await expectClean('wizard, index info')
    await page.keyboard.press('Alt+PageDown')
    await expect.poll(() => page.getByTestId('wizard-step-title').textContent()).toBe('Step 4 of 4: Center info')
  })

  it('center info: one center from the directory and one made inline; saving creates the project and opens it', async () => {
    await page.getByTestId('center-search').focus()
    await page.keyboard.type(centerCode)
    const option = page.getByTestId('center-options').locator('label', { hasText: centerCode })
    await option.waitFor()
    await expect.poll(() => page.getByTestId('center-option').count()).toBe(1)
    await page.keyboard.press('Tab')
    await page.keyboard.press('Space')
    await page.getByTestId('center-chosen').filter({ hasText: centerCode }).waitFor()

    await page.keyboard.press('Alt+Shift+L')
    await page.getByTestId('center-dialog-code').waitFor()
    await expect.poll(focusedTestId).toBe('center-dialog-code')
    await page.keyboard.type(newCode)
    await page.keyboard.press('Tab')
    await page.keyboard.type(`新中心${p}`)
    await page.keyboard.press('Enter')
    await page.getByTestId('center-dialog').waitFor({ state: 'detached' })
    await page.getByTestId('center-chosen').filter({ hasText: newCode }).waitFor()
    await expectClean('wizard, center info')

    await page.keyboard.press('Alt+PageDown')
    await page.waitForURL(/\/project\/multi-detail\?id=\d+$/)
    projectId = Number(new URL(page.url()).searchParams.get('id'))
    await toastWith(page, `Project ${projectName} created`).waitFor()
    // The project took the wizard's place: its tab is gone, the detail stays on screen.
    await expect.poll(() => page.locator('[data-testid="tab"][data-path^="/project/multi-add"]').count()).toBe(0)
    expect(page.url()).toMatch(/\/project\/multi-detail\?id=\d+$/)

    const res = await api<Detail>('GET', `/api/projects/${projectId}`, { token })
    const d = res.body.data!
    expect(d).toMatchObject({
      name: projectName,
      number: `LS-${p}`,
      scope: 'multi',
      plannedQuantity: 120,
      plannedGroups: 2,
      groupType: 'group',
    })
    expect(d.queues.map((q) => [q.name, q.key, q.entryCondition])).toEqual([
      ['Arm A', 'armA', 'Adults with NSCLC'],
      ['Arm B', 'armB', ''],
    ])
    expect(d.forms.map((f) => [f.name, f.version])).toEqual([[crfName, 1]])
    expect(d.centers.map((c) => c.code).sort()).toEqual([centerCode, newCode].sort())
    // The draft is gone: the wizard starts afresh.
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('projectDraft.')))).toEqual([])
  })

  it('the edit page: a queue edited on the queue tab and saved with Alt+Shift+Enter', async () => {
    await page.goto(`/project/multi-edit?id=${projectId}&tab=queue`)
    await page.getByTestId('project-edit').waitFor()
    await expect.poll(() => page.getByTestId('queue-card').count()).toBe(2)
    await expectClean('edit page, queue tab')
    const name = page.getByTestId('queue-name').nth(1)
    await name.focus()
    await page.keyboard.press('ControlOrMeta+A')
    await page.keyboard.type('Arm B (placebo)')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await page.keyboard.type('Adults, placebo')
    await page.keyboard.press('Alt+Shift+Enter')
    await toastWith(page, 'Queue Arm B (placebo) saved').waitFor()
    const d = (await api<Detail>('GET', `/api/projects/${projectId}`, { token })).body.data!
    expect(d.queues.map((q) => [q.name, q.key, q.entryCondition])).toEqual([
      ['Arm A', 'armA', 'Adults with NSCLC'],
      ['Arm B (placebo)', 'armB', 'Adults, placebo'],
    ])
  })

  it('the index tab offers a newer published version as an explicit, confirmed upgrade', async () => {
    // Version 2 of the CRF: its fields in another order, published.
    const items = [...indicatorIds].reverse().map((indicatorId) => ({ indicatorId, required: false }))
    const saved = await api('PUT', `/api/templates/${crfId}/layout`, {
      token,
      body: { sections: [{ key: 's1', title: '', repeating: false, items }] },
    })
    expect(saved.body.code).toBe(0)
    await publish()

    await page.reload()
    await page.getByTestId('project-edit').waitFor()
    // The tab list by keyboard: from the queue tab one to the right is the index tab.
    await page.locator('[data-testid="project-edit"] [role="tab"][aria-selected="true"]').focus()
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('Enter')
    // The tab is the path's: the index tab replaced the queue tab's page in the tab bar.
    await page.waitForURL(/\/project\/multi-edit\?id=\d+&tab=index$/)
    expect(await page.locator('[data-testid="tab"][data-path^="/project/multi-edit"]').count()).toBe(1)
    const row = page.locator('[data-testid="forms-crf"] [data-testid="form-row"]', { hasText: crfName })
    await row.getByTestId('form-pinned').filter({ hasText: 'v1' }).waitFor()
    const upgrade = row.getByTestId('cmd-projectSetup.upgradeForm')
    expect(await upgrade.textContent()).toBe('Upgrade to v2')
    await expectClean('edit page, index tab')
    await upgrade.focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('confirm-message').textContent()).toBe(`Upgrade ${crfName} from v1 to v2?`)
    // The alert takes the focus on its confirm button once it has opened: Enter answers yes.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.bp6-alert-footer') != null)).toBe(true)
    await page.keyboard.press('Enter')
    await toastWith(page, `${crfName} now collects v2`).waitFor()
    await row.getByTestId('form-pinned').filter({ hasText: 'v2' }).waitFor()
    expect(await upgrade.count()).toBe(0)
    const d = (await api<Detail>('GET', `/api/projects/${projectId}`, { token })).body.data!
    expect(d.forms.map((f) => [f.name, f.version])).toEqual([[crfName, 2]])
  })

  it('the base tab and the center tab each save on their own, with the server rules', async () => {
    await page.locator('[data-testid="project-edit"] [role="tab"][aria-selected="true"]').focus()
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('Enter')
    await page.getByTestId('base-name').waitFor()
    expect(await page.getByTestId('base-name').inputValue()).toBe(projectName)
    await expectClean('edit page, base tab')
    await page.getByTestId('base-therapyTime').focus()
    await page.keyboard.type('6 months')
    await page.keyboard.press('Alt+Shift+Enter')
    await toastWith(page, 'Basic info saved').waitFor()

    await page.locator('[data-testid="project-edit"] [role="tab"][aria-selected="true"]').focus()
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight')
    await page.keyboard.press('Enter')
    await page.getByTestId('center-chosen').nth(1).waitFor()
    await expectClean('edit page, center tab')
    // The inline center is removed from the project (its remove button, by keyboard), then saved.
    await page.getByRole('button', { name: new RegExp(`^Remove .*\\(${newCode}\\)$`) }).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('center-chosen').count()).toBe(1)
    await page.keyboard.press('Alt+Shift+Enter')
    await toastWith(page, 'Center info saved').waitFor()

    const d = (await api<Detail & { therapyTime: string }>('GET', `/api/projects/${projectId}`, { token })).body.data!
    expect(d.therapyTime).toBe('6 months')
    expect(d.centers.map((c) => c.code)).toEqual([centerCode])
  })

  it('the member tab: a project role made and a member added with it, by keyboard', async () => {
    await page.goto(`/project/multi-edit?id=${projectId}&tab=member`)
    await page.getByTestId('member-tab').waitFor()
    await page.getByTestId('cmd-projectMembers.editRole').first().focus()
    await page.keyboard.press('Enter')
    await expect.poll(focusedTestId).toBe('project-role-name')
    await page.keyboard.type('Data entry')
    await page.getByTestId('authority-enterData').focus()
    await page.keyboard.press('Space')
    await page.getByTestId('project-role-save').focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('project-role-dialog').waitFor({ state: 'detached' })
    await page.getByTestId('project-role-row').filter({ hasText: 'Data entry' }).waitFor()

    await page.keyboard.press('Alt+Shift+M')
    await expect.poll(focusedTestId).toBe('member-search')
    await page.keyboard.type(`u${p}`)
    await expect.poll(() => page.getByTestId('member-candidate').count()).toBe(1)
    await page.keyboard.press('Enter')
    await page.getByTestId('member-role').focus()
    await page.keyboard.type('Data')
    expect(await page.getByTestId('member-role').locator('option:checked').textContent()).toBe('Data entry')
    await page.getByTestId('add-member-save').focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('add-member-dialog').waitFor({ state: 'detached' })
    await page
      .getByTestId('project-member-row')
      .filter({ hasText: `Dr ${p}` })
      .waitFor()
    await expectClean('edit page, member tab')

    const members = (await api<{ name: string; roleName: string }[]>('GET', `/api/projects/${projectId}/members`, { token })).body.data!
    expect(members.map((m) => [m.name, m.roleName])).toContainEqual([`Dr ${p}`, 'Data entry'])
  })

  /** The config tab with a simple randomization of two named groups, not saved yet. */
  const simplePlan = async () => {
    await page.goto(`/project/multi-edit?id=${projectId}&tab=config`)
    await page.getByTestId('randomization-tab').waitFor()
    await page.getByTestId('randomization-method').selectOption('simple')
    await page.getByTestId('group-name-0').fill('Treatment')
    await page.getByTestId('group-name-1').fill('Control')
  }

  it('the config tab: an emptied ratio stays empty and is asked for by its group, not read as 0', async () => {
    await simplePlan()
    await page.getByTestId('group-ratio-1').focus()
    await page.keyboard.press('Control+A')
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Tab')
    await page.getByTestId('randomization-problems').getByText('Please input the allocation ratio of group B').waitFor()
    expect(await page.getByTestId('group-ratio-1').inputValue()).toBe('')
    expect(await page.getByTestId('randomization-problems').textContent()).not.toContain('at least 1')
    expect(await page.getByTestId('randomization-save').getAttribute('aria-disabled')).toBe('true')
    await page.getByTestId('group-ratio-1').focus()
    await page.keyboard.type('2')
    await page.getByTestId('randomization-problems').waitFor({ state: 'detached' })
  })

  it('the config tab: a randomization plan saved by keyboard keeps the focus on Save, which has nothing left to save; Generate keeps it too', async () => {
    await simplePlan()
    await page.getByTestId('randomization-save').focus()
    await page.keyboard.press('Enter')
    await toastWith(page, 'Randomization plan saved').waitFor()
    await page.getByTestId('randomization-generate').waitFor()
    await expect.poll(focusedTestId).toBe('randomization-save')
    expect(await page.getByTestId('randomization-save').getAttribute('aria-disabled')).toBe('true')
    // Nothing left to save: Enter sends nothing.
    let saves = 0
    page.on('request', (r) => void (r.method() === 'PUT' && r.url().endsWith(`/api/projects/${projectId}/randomization`) && saves++))
    await page.keyboard.press('Enter')
    await page.waitForTimeout(300)
    expect(saves).toBe(0)
    expect(await focusedTestId()).toBe('randomization-save')

    await page.keyboard.press('Tab')
    expect(await focusedTestId()).toBe('randomization-generate')
    await page.keyboard.press('Enter')
    await toastWith(page, 'Allocation list generated').waitFor()
    await page.getByTestId('randomization-generate').getByText('Generate list again').waitFor()
    await expect.poll(focusedTestId).toBe('randomization-generate')
  })

  it('the project made in the wizard is submitted to audit and passed from the palette', async () => {
    await page.goto(`/project/multi-detail?id=${projectId}`)
    const status = page.getByTestId('project-detail-status')
    await expect.poll(() => status.textContent()).toBe('Draft')
    await runFromPalette(page, 'Submit to audit', 'projects.submit')
    await expect.poll(() => status.textContent()).toBe('In audit')
    await runFromPalette(page, 'Pass', 'projects.pass')
    await expect.poll(() => status.textContent()).toBe('Active')
    const history = page.getByTestId('project-history')
    await history.getByText('Submitted to audit', { exact: true }).waitFor()
    await history.getByText('Passed', { exact: true }).waitFor()
    await history.getByText('Member added', { exact: true }).waitFor()
    const d = (await api<{ status: string }>('GET', `/api/projects/${projectId}`, { token })).body.data!
    expect(d.status).toBe('active')
  })

  it('a member who manages one center is offered no more than their own role: beyond it is disabled or absent, the manager cannot be reassigned', async () => {
    const data = async <T>(what: string, res: Promise<{ status: number; body: { code: number; msg: string; data?: T } }>) => {
      const r = await res
      if (r.body.code !== 0) throw new Error(`${what}: ${r.status} ${r.body.msg}`)
      return r.body.data as T
    }
    const otherCode = `O${p}`.slice(0, 12).toUpperCase()
    const extra = await data<{ id: number }>(
      'center',
      api('POST', '/api/centers', { token, body: { code: otherCode, nameZh: `另一中心${p}`, nameEn: `Other ${p}` } }),
    )
    const before = await data<{ centers: { id: number }[] }>('project', api('GET', `/api/projects/${projectId}`, { token }))
    await data(
      'centers',
      api('PUT', `/api/projects/${projectId}/centers`, { token, body: { centerIds: [...before.centers.map((c) => c.id), extra.id] } }),
    )
    const detail = await data<{ centers: { id: number; code: string }[] }>('project', api('GET', `/api/projects/${projectId}`, { token }))
    const mine = detail.centers.find((c) => c.id !== extra.id)!
    const other = detail.centers.find((c) => c.id === extra.id)!
    const lead = await data<{ id: number }>(
      'role',
      api('POST', `/api/projects/${projectId}/roles`, {
        token,
        body: {
          name: `Lead ${mine.code}`,
          authorities: ['manageMembers', 'enrol', 'enterData'],
          blinded: true,
          allQueues: true,
          centerIds: [mine.id],
        },
      }),
    )
    const systemRoles = await data<{ items: { id: number; builtin: string | null }[] }>('roles', api('GET', '/api/admin/roles', { token }))
    const username = `lead${p}`
    const created = await data<{ userId: number; password: string }>(
      'user',
      api('POST', '/api/admin/users', {
        token,
        body: { name: `Lead ${p}`, username, roleIds: [systemRoles.items.find((r) => r.builtin === 'researchAdmin')!.id] },
      }),
    )
    await data('member', api('POST', `/api/projects/${projectId}/members`, { token, body: { userId: created.userId, roleId: lead.id } }))
    const session = await apiSignIn(username, created.password)
    const password = 'Lead2026ok'
    await data(
      'password',
      api('POST', '/api/admin/user/changePwd', { token: session.token, body: { id: session.userId, oldPwd: created.password, password } }),
    )

    const { context, page: theirs } = await newPage(browser, { lang: 'en' })
    try {
      await signIn(theirs, username, password)
      await theirs.goto(`/project/multi-edit?id=${projectId}&tab=member`)
      await theirs.getByTestId('member-tab').waitFor()
      await theirs.getByTestId('cmd-projectMembers.editRole').first().click()
      const dialog = theirs.getByTestId('project-role-dialog')
      await dialog.getByTestId('project-role-bounded').waitFor()
      expect(await dialog.getByTestId('authority-enrol').isDisabled()).toBe(false)
      expect(await dialog.getByTestId('authority-unblind').isDisabled()).toBe(true)
      expect(await dialog.getByTestId('authority-configure').isDisabled()).toBe(true)
      expect(await dialog.getByTestId('project-role-blinded').isChecked()).toBe(true)
      expect(await dialog.getByTestId('project-role-blinded').isDisabled()).toBe(true)
      expect(await dialog.getByRole('radio', { name: 'All centers' }).isDisabled()).toBe(true)
      expect(await dialog.getByTestId(`role-center-${mine.code}`).isChecked()).toBe(true)
      // Centers outside their own are not even listed to them.
      expect(await dialog.getByTestId(`role-center-${other.code}`).count()).toBe(0)
      await theirs.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
      const managerRow = theirs.getByTestId('project-member-row').filter({ hasText: 'admin' })
      expect(await managerRow.getByTestId('member-role-select').isDisabled()).toBe(true)
    } finally {
      await context.close()
    }
  })

  it('the draft is cleared from the palette, after a confirmation', async () => {
    await page.goto('/project/multi-add')
    await page.getByTestId('project-wizard').waitFor()
    await page.getByTestId('base-name').focus()
    await page.keyboard.type(`Abandoned ${p}`)
    await draftStored(`Abandoned ${p}`)
    await runFromPalette(page, 'Clear project draft', 'projectSetup.clearDraft')
    await expect.poll(() => page.getByTestId('confirm-message').textContent()).toBe('Clear the project draft?')
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.bp6-alert-footer') != null)).toBe(true)
    await page.keyboard.press('Enter')
    await toastWith(page, 'Draft cleared').waitFor()
    expect(await page.getByTestId('base-name').inputValue()).toBe('')
    await expect.poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('projectDraft.')))).toEqual([])
  })

  it('a single-center project picks exactly one center', async () => {
    await page.goto('/project/multi-add?scope=single')
    await page.getByTestId('project-wizard').waitFor()
    expect(await page.locator('[data-testid="project-wizard"] h4').textContent()).toContain('Single-center project')
    await expect.poll(focusedTestId).toBe('base-type')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Tab')
    await page.keyboard.type(`Single ${p}`)
    await page.keyboard.press('Tab')
    await page.keyboard.type(`S-${p}`)
    await page.getByTestId('base-groupType').focus()
    await page.keyboard.press('ArrowDown') // One-armed test
    await page.getByTestId('base-plannedQuantity').focus()
    await page.keyboard.type('30')
    await page.keyboard.press('Tab')
    await page.keyboard.type('1')
    await page.keyboard.press('Alt+PageDown')
    await expect.poll(focusedTestId).toBe('queue-name')
    await page.keyboard.type('Cohort')
    await page.keyboard.press('Tab')
    await page.keyboard.type('cohort')
    await page.keyboard.press('Alt+PageDown')
    await page.keyboard.press('Alt+PageDown')
    await expect.poll(() => page.getByTestId('wizard-step-title').textContent()).toBe('Step 4 of 4: Center info')
    // Saving without the center is refused on this step, in the user language.
    await page.keyboard.press('Alt+PageDown')
    expect(await page.getByTestId('centers-error').textContent()).toBe('Pick the center of this single-center project')
    await page.getByTestId('center-search').focus()
    await page.keyboard.type(centerCode)
    await expect.poll(() => page.getByTestId('center-option').count()).toBe(1)
    await page.keyboard.press('Tab')
    await page.keyboard.press('Space')
    expect(await page.getByTestId('center-option').isChecked()).toBe(true)
    await page.keyboard.press('Alt+PageDown')
    // The new project's detail, not the earlier project's tab the closing wizard may show first.
    await page.waitForURL((url) => url.pathname === '/project/multi-detail' && Number(url.searchParams.get('id')) !== projectId)
    const id = Number(new URL(page.url()).searchParams.get('id'))
    const d = (await api<Detail>('GET', `/api/projects/${id}`, { token })).body.data!
    expect(d).toMatchObject({ scope: 'single', groupType: 'single', plannedGroups: 1 })
    expect(d.centers.map((c) => c.code)).toEqual([centerCode])
  })

  it("the center tab edits a directory center's English name; deleting a center in use is refused with the server's message", async () => {
    await page.goto(`/project/multi-edit?id=${projectId}&tab=center`)
    await page.getByTestId('project-edit').waitFor()
    await page.getByTestId('center-search').focus()
    await page.keyboard.type(centerCode)
    const row = page.locator('.project-center-row', { hasText: centerCode })
    await expect.poll(() => page.getByTestId('center-option').count()).toBe(1)
    await page.keyboard.press('Tab') // the center's checkbox
    await page.keyboard.press('Tab') // its edit button
    await expect.poll(focusedTestId).toBe('cmd-projectSetup.editCenter')
    await page.keyboard.press('Enter')
    // The center dialog, prefilled with the entry, its code focused.
    await expect.poll(focusedTestId).toBe('center-dialog-code')
    expect(await page.getByTestId('center-dialog-code').inputValue()).toBe(centerCode)
    expect(await page.getByTestId('center-dialog-nameZh').inputValue()).toBe(`中心${p}`)
    expect(await page.getByTestId('center-dialog-region').inputValue()).toBe('Beijing')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await focusedTestId()).toBe('center-dialog-nameEn')
    await page.keyboard.press('ControlOrMeta+A')
    await page.keyboard.type(`Renamed ${p}`)
    await page.keyboard.press('Enter')
    await toastWith(page, `Center ${centerCode} saved`).waitFor()
    await page.getByTestId('center-dialog').waitFor({ state: 'detached' })
    // The directory row and the project's chosen center show the new name.
    await row.filter({ hasText: `Renamed ${p}` }).waitFor()
    await page
      .getByTestId('center-chosen')
      .filter({ hasText: `Renamed ${p}` })
      .waitFor()
    const found = await api<{ rows: { code: string; nameEn: string; nameZh: string; region: string }[] }>('GET', '/api/centers', {
      token,
      query: { q: centerCode },
    })
    expect(found.body.data!.rows).toEqual([
      expect.objectContaining({ code: centerCode, nameZh: `中心${p}`, nameEn: `Renamed ${p}`, region: 'Beijing' }),
    ])

    // Both projects of this file use the center: the server refuses, its message is shown in English.
    await row.getByTestId('cmd-projectSetup.deleteCenter').focus()
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.getByTestId('confirm-message').textContent())
      .toBe(`Delete center Renamed ${p} (${centerCode}) from the directory?`)
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.bp6-alert-footer') != null)).toBe(true)
    await page.keyboard.press('Enter')
    await toastWith(page, '2 projects use this center: it cannot be deleted').waitFor()
    expect(await row.count()).toBe(1)
    const kept = await api<{ rows: { code: string }[] }>('GET', '/api/centers', { token, query: { q: centerCode } })
    expect(kept.body.data!.rows.map((r) => r.code)).toEqual([centerCode])
    await expectClean('edit page, center tab after a refused delete')
  })
})
