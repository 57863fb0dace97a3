/**
 * Issue 10 item 10 by keyboard only: from a project's detail the palette opens follow-up
 * management; a visit is added through the palette's "New visit" and its dialog; the subject
 * enrolled today is then due and Enter on its row opens its detail; the schedule tab lists the
 * visit; the palette opens project progress with its charts and tables; a member of one of two
 * centers sees the plan as the whole project's; opened by its address without a
 * project, progress asks for one and shows the project chosen there. The CRF, the center,
 * the active project and its subject are made through the API first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import {
  TOKEN_COOKIE,
  adminPage,
  api,
  apiSignIn,
  cellsMatching,
  cookie,
  focusedTestId,
  launch,
  newPage,
  runFromPalette,
  signIn,
  tabInto as tabIntoOn,
  toastWith,
} from './browser.ts'
import { seedIndicators, seedSecondProject } from './seed.ts'
import { addDays, type SubjectSchedule } from '../../contract/followUp.ts'
import { expectAxeClean } from './axe.ts'

let browser: Browser
let page: Page
let token = ''
let projectId = 0
let subjectNo = ''
let subjectId = 0
/** The project's follow-up CRFs. */
let crfIds: number[] = []
let crfVersions: { templateId: number; versionId: number }[] = []
const p = `f${Date.now().toString(36)}`
const crfName = `Follow-up CRF ${p}`
const crfName2 = `Phone call ${p}`
/** Pinned, but collected by no visit. */
const crfName3 = `Unscheduled ${p}`

async function ok<T>(what: string, answer: Promise<{ status: number; body: { code: number; msg: string; data?: T } }>): Promise<T> {
  const res = await answer
  if (res.body.code !== 0) throw new Error(`${what}: ${res.status} ${res.body.msg}`)
  return res.body.data as T
}

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  const context = page.context()
  token = (await cookie(context, TOKEN_COOKIE)) ?? ''
  if (!token) throw new Error('no session cookie after sign-in')
  const indicatorIds = await seedIndicators(token, p, 1)
  /** A published follow-up CRF of the one indicator: its template and version. */
  const followUpCrf = async (name: string) => {
    const crf = await ok<{ id: number }>(
      'CRF',
      api('POST', '/api/templates', { token, body: { name, kind: 'crf', collectType: 'followUp' } }),
    )
    const layout = {
      sections: [{ key: 's1', title: '', repeating: false, items: indicatorIds.map((indicatorId) => ({ indicatorId, required: false })) }],
    }
    await ok('layout', api('PUT', `/api/templates/${crf.id}/layout`, { token, body: layout }))
    await ok('publish', api('POST', '/api/scientific/form/saveCrfFormGenerateToDb', { token, query: { id: String(crf.id) } }))
    const versions = await ok<{ id: number; state: string }[]>('versions', api('GET', `/api/templates/${crf.id}/versions`, { token }))
    return { templateId: crf.id, versionId: versions.find((v) => v.state === 'published')!.id }
  }
  const forms = [await followUpCrf(crfName), await followUpCrf(crfName2), await followUpCrf(crfName3)]
  crfIds = forms.map((f) => f.templateId)
  crfVersions = forms
  const center = await ok<{ id: number }>(
    'center',
    api('POST', '/api/centers', {
      token,
      body: {
        code: `F${p}`.slice(0, 12).toUpperCase(),
        nameZh: `随访中心${p}`,
        nameEn: `Western Medical Center of Guangzhou ${p}`,
        region: '',
      },
    }),
  )
  const project = await activeProject(`Visit study ${p}`, `VS-${p}`, [center.id], forms)
  projectId = project.id
  subjectNo = (await enrol(projectId, project.queueId, center.id)).subjectNo
  await seedSecondProject(token, p)
})
afterAll(async () => {
  await browser?.close()
})

/** An active project with one queue ('Cohort A') in `centerIds`, pinning `forms`: its id and the queue's. */
async function activeProject(name: string, number: string, centerIds: number[], forms: { templateId: number; versionId: number }[] = []) {
  const base = { type: 'prospective', name, number, groupType: 'group', plannedQuantity: 20, plannedGroups: 2 }
  const body = { scope: 'multi', base, queues: [{ name: 'Cohort A', key: 'A' }], forms, centerIds }
  const project = await ok<{ id: number; queues: { id: number }[] }>('project', api('POST', '/api/projects', { token, body }))
  await ok('submit', api('POST', `/api/projects/${project.id}/submit`, { token }))
  await ok('pass', api('POST', `/api/projects/${project.id}/pass`, { token }))
  return { id: project.id, queueId: project.queues[0]!.id }
}

function enrol(project: number, queueId: number, centerId: number) {
  const body = { queueId, centerId, checklist: { inclusion: [], exclusion: [] } }
  return ok<{ subjectNo: string }>('enrol', api('POST', `/api/projects/${project}/subjects`, { token, body }))
}

const tabInto = (selector: string, max = 40) => tabIntoOn(page, selector, max)
const expectClean = (what: string) => expectAxeClean(page, what)

const pane = (path: string) => page.locator(`[data-testid="pane"][data-path="${path}"]`)

/** Follow-up management of the project, on its schedule tab (the third), reached by keyboard. */
async function openSchedule() {
  await page.goto(`/project/follow-up?id=${projectId}`)
  const view = pane(`/project/follow-up?id=${projectId}`)
  await view.getByTestId('followup-page').waitFor()
  await tabInto('.followup-page [role="tablist"]')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('Enter')
  return view
}

describe('follow-up management by keyboard', () => {
  it('the palette opens follow-up management of the shown project; nothing is due without a schedule', async () => {
    await page.goto(`/project/multi-detail?id=${projectId}`)
    await page.getByTestId('project-detail').waitFor()
    await runFromPalette(page, 'follow-up management', 'followUp.open')
    await page.waitForURL(`**/project/follow-up?id=${projectId}`)
    const view = pane(`/project/follow-up?id=${projectId}`)
    await view.getByTestId('followup-page').waitFor()
    await view.getByTestId('followup-due').getByText('No visits are due').waitFor()
    await expectClean('follow-up, due list')
  })

  it('New visit from the palette: a refused value is said in the dialog; a good one saves and the subject becomes due', async () => {
    await runFromPalette(page, 'new visit', 'followUp.newVisit')
    const dialog = page.getByTestId('visit-dialog')
    await dialog.waitFor()
    // The name has the focus; without a form the dialog refuses and says why.
    await page.keyboard.type('Day 0 call')
    await page.keyboard.press('Enter')
    await dialog.getByTestId('visit-error').getByText('Choose at least one follow-up form').waitFor()
    await expectClean('visit dialog')
    // Days after enrolment 0 (as given), window before 0, window after 3: Tab goes from number to
    // number (no step buttons between them; the arrows step), then to the CRF.
    for (const field of ['visit-dayOffset', 'visit-windowBefore', 'visit-windowAfter']) {
      await page.keyboard.press('Tab')
      expect(await focusedTestId(page)).toBe(field)
    }
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowUp')
    expect(await dialog.getByTestId('visit-windowAfter').inputValue()).toBe('3')
    // Both CRFs.
    await tabInto('[data-testid^="visit-form-"]')
    await page.keyboard.press('Space')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Space')
    // Once a form is chosen, the refusal no longer stands and is not shown.
    await dialog.getByTestId('visit-error').waitFor({ state: 'detached' })
    await tabInto('[data-testid="visit-save"]')
    await page.keyboard.press('Enter')
    await toastWith(page, 'Visit Day 0 call saved').waitFor()
    await dialog.waitFor({ state: 'detached' })

    const table = pane(`/project/follow-up?id=${projectId}`).getByTestId('followup-table-due')
    const row = table.locator('.bp6-table-quadrant-main .bp6-table-cell-row-0')
    await row.getByText('Day 0 call').waitFor()
    expect(await table.locator('.bp6-table-quadrant-main').innerText()).toContain(new Date().toISOString().slice(0, 10))
  })

  it('Enter on the due row opens the subject', async () => {
    await tabInto('[data-testid="followup-table-due"] .dense-body')
    await page.keyboard.press('Enter')
    await page.waitForURL(`**/project/patientDetail?studyId=${projectId}&id=*`)
    expect(subjectNo).not.toBe('')
    subjectId = Number(new URL(page.url()).searchParams.get('id'))
  })

  it("the row's plan button shows the subject's planned visits", async () => {
    await page.goto(`/project/follow-up?id=${projectId}`)
    const view = pane(`/project/follow-up?id=${projectId}`)
    await view.getByTestId('followup-table-due').locator('.bp6-table-quadrant-main .bp6-table-cell-row-0').first().waitFor()
    await tabInto('[data-testid="followup-table-due"] [data-testid="cmd-followUp.showSchedule"]')
    await page.keyboard.press('Enter')
    const dialog = page.getByTestId('schedule-dialog')
    const today = new Date().toISOString().slice(0, 10)
    await dialog.getByTestId('schedule-visits').waitFor()
    const cells = await dialog.getByTestId('schedule-visits').locator('tbody tr').first().locator('td').allInnerTexts()
    // Listed as English lists them (not with the Chinese 、).
    expect(cells).toEqual([
      'Day 0 call',
      today,
      `${today} to ${addDays(today, 3)}`,
      'Due',
      `${crfName} (not entered), ${crfName2} (not entered)`,
    ])
    // The planned date and the window's dates are never broken at a hyphen onto two lines.
    const lines = await dialog
      .getByTestId('schedule-visits')
      .locator('tbody tr')
      .first()
      .locator('td')
      .evaluateAll((tds) =>
        tds.slice(1, 3).map((td) => {
          const range = document.createRange()
          range.selectNodeContents(td)
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
        }),
      )
    expect(lines).toEqual([1, 1])
    await expectClean('schedule dialog')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
  })

  it('in Chinese the plan lists the CRFs with Chinese punctuation', async () => {
    const zh = await adminPage(browser, 'zh')
    await zh.goto(`/project/follow-up?id=${projectId}`)
    await zh.getByTestId('followup-table-due').locator('[data-testid="cmd-followUp.showSchedule"]').first().click()
    // allInnerTexts does not wait: the plan's first row first (it read nothing now and then before it came).
    const first = zh.getByTestId('schedule-visits').locator('tbody tr').first()
    await first.waitFor()
    const cells = await first.locator('td').allInnerTexts()
    expect(cells[4]).toBe(`${crfName}（未录入）、${crfName2}（未录入）`)
    await zh.context().close()
  })

  it('at 1400 px the due list shows a visit, a center and every header in full, in English and Chinese', async () => {
    // Three digits, about as wide as the demo's codes (DGZ), whatever the run.
    const code = String(Date.now() % 1000).padStart(3, '0')
    const body = { code, nameZh: '示范广州医院（虚构）', nameEn: 'Demo Guangzhou Hospital (fictional)', region: '' }
    const center = await ok<{ id: number }>('center', api('POST', '/api/centers', { token, body }))
    const study = await activeProject(`Widths ${p}`, `W-${p}`, [center.id], [crfVersions[0]!])
    const visit = { name: 'V1 · 3 个月 / month 3', dayOffset: 0, windowBefore: 0, windowAfter: 14, templateIds: [crfIds[0]] }
    await ok('visit', api('POST', `/api/projects/${study.id}/visits`, { token, body: visit }))
    await enrol(study.id, study.queueId, center.id)
    for (const [lang, centerText] of [
      ['en', `Demo Guangzhou Hospital (fictional) (${code})`],
      ['zh', `示范广州医院（虚构） (${code})`],
    ] as const) {
      const other = await adminPage(browser, lang)
      try {
        await other.goto(`/project/follow-up?id=${study.id}`)
        const table = other.getByTestId('followup-table-due')
        await table.locator('.bp6-table-quadrant-main .bp6-table-cell-row-0').first().waitFor()
        expect(await cellsMatching(table, /^V1 · 3 个月/), lang).toEqual([{ text: visit.name, cut: false }])
        expect(await cellsMatching(table, /广州|Guangzhou/), lang).toEqual([{ text: centerText, cut: false }])
        const headers = await table
          .locator('.dense-header')
          .evaluateAll((hs) => hs.filter((h) => h.getClientRects().length > 0).map((h) => [h.textContent, h.scrollWidth > h.clientWidth]))
        expect(headers.length, lang).toBeGreaterThanOrEqual(8)
        expect(
          headers.filter(([, cut]) => cut),
          lang,
        ).toEqual([])
        // A text cut by a narrower column is read in full on hover.
        expect(await table.locator('.bp6-table-quadrant-main .bp6-table-cell', { hasText: centerText }).getAttribute('title')).toBe(
          centerText,
        )
      } finally {
        await other.context().close()
      }
    }
  })

  it('the schedule tab lists the visit with its window and CRF', async () => {
    const view = await openSchedule()
    const visits = view.getByTestId('followup-visits')
    await visits.waitFor()
    const cells = await visits.locator('tbody tr').first().locator('td').allInnerTexts()
    expect(cells.slice(0, 6)).toEqual(['Day 0 call', '0', '0', '3', `${crfName}, ${crfName2}`, '0'])
    await expectClean('follow-up, schedule')
  })

  it('a number cleared in the visit dialog is asked for, not saved as 0', async () => {
    const view = pane(`/project/follow-up?id=${projectId}`)
    await tabInto('[data-testid="followup-visits"] [data-testid="cmd-followUp.editVisit"]')
    await page.keyboard.press('Enter')
    const dialog = page.getByTestId('visit-dialog')
    await dialog.waitFor()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await focusedTestId(page)).toBe('visit-windowAfter')
    await page.keyboard.press('Control+A')
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Enter')
    await dialog.getByTestId('visit-error').getByText('Please input Window after (days)').waitFor()
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    const cells = await view.getByTestId('followup-visits').locator('tbody tr').first().locator('td').allInnerTexts()
    expect(cells.slice(0, 4)).toEqual(['Day 0 call', '0', '0', '3'])
  })

  it("the visit dialog's three numbers stand on one row, their labels on one line, in English and Chinese", async () => {
    for (const lang of ['en', 'zh'] as const) {
      const other = await adminPage(browser, lang)
      try {
        await other.goto(`/project/follow-up?id=${projectId}`)
        await other.locator('#bp6-tab-title_followup-tabs_schedule').click()
        await other.getByTestId('cmd-followUp.newVisit').click()
        const dialog = other.getByTestId('visit-dialog')
        await dialog.waitFor()
        const tops = await dialog
          .locator('[data-testid="visit-dayOffset"], [data-testid="visit-windowBefore"], [data-testid="visit-windowAfter"]')
          .evaluateAll((inputs) => inputs.map((i) => Math.round(i.getBoundingClientRect().top)))
        expect(tops, lang).toHaveLength(3)
        expect(new Set(tops).size, `${lang}: ${tops.join(', ')}`).toBe(1)
        const labelLines = await dialog.locator('.followup-numbers label').evaluateAll((labels) =>
          labels.map((l) => {
            const range = document.createRange()
            range.selectNodeContents(l)
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
          }),
        )
        expect(labelLines, lang).toEqual([1, 1, 1])
      } finally {
        await other.context().close()
      }
    }
  })

  it('a deleted visit leaves the focus on the row now in its place, not on the page', async () => {
    for (const [name, dayOffset] of [
      ['Call A', 5],
      ['Call B', 6],
    ] as const) {
      const visit = { name, dayOffset, windowBefore: 0, windowAfter: 0, templateIds: [crfIds[0]] }
      await ok('visit', api('POST', `/api/projects/${projectId}/visits`, { token, body: visit }))
    }
    const view = await openSchedule()
    const visitRow = (name: string) => view.locator(`[data-testid="followup-visits"] tr[data-name="${name}"]`)
    const focusedIn = () =>
      page.evaluate(() => [document.activeElement?.closest('tr')?.dataset.name, document.activeElement?.getAttribute('data-testid')])
    for (const [gone, next] of [
      ['Call A', 'Call B'],
      ['Call B', 'Day 0 call'],
    ]) {
      await visitRow(gone!).getByTestId('cmd-followUp.deleteVisit').focus()
      await page.keyboard.press('Enter')
      await page.getByTestId('confirm-message').waitFor()
      // Enter answers yes once the alert has given its confirm button the focus.
      await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.bp6-alert-footer') != null)).toBe(true)
      await page.keyboard.press('Enter')
      await visitRow(gone!).waitFor({ state: 'detached' })
      await expect.poll(focusedIn).toEqual([next, 'cmd-followUp.editVisit'])
    }
  })

  it('the palette opens project progress: enrolment against plan and completion, as charts and tables', async () => {
    // A visit not due for four weeks: its CRF is not expected yet.
    const later = { name: 'Week 4 call', dayOffset: 28, windowBefore: 3, windowAfter: 3, templateIds: [crfIds[0]] }
    await ok('visit', api('POST', `/api/projects/${projectId}/visits`, { token, body: later }))
    await runFromPalette(page, 'project progress', 'followUp.openProgress')
    await page.waitForURL(`**/project/progress?id=${projectId}`)
    const view = pane(`/project/progress?id=${projectId}`)
    await view.getByTestId('progress-enrolled').getByText('1 enrolled of 20 planned').waitFor()
    await view.getByTestId('progress-enrolment-chart').waitFor()
    await view.getByTestId('progress-center-chart').waitFor()
    const rows = view.getByTestId('progress-forms').locator('tbody tr')
    // Counted at the visits whose window has opened (the server's day, UTC here): Day 0 call, not Week 4 call.
    const today = new Date().toISOString().slice(0, 10)
    const dueVisits = `Visits whose window opened by ${today}`
    expect(await rows.nth(0).locator('td').allInnerTexts()).toEqual([crfName, 'Follow up', dueVisits, '1', '0', '0', '0%'])
    expect(await view.getByTestId('progress-completion-note').innerText()).toContain(`only the visits whose window has opened by ${today}`)
    // A follow-up CRF that no visit collects cannot be entered: nothing of it is expected.
    expect(await rows.nth(2).locator('td').allInnerTexts()).toEqual([crfName3, 'Follow up', dueVisits, '0', '0', '0', '—'])
    const chart = await view.getByTestId('progress-completion-chart').getAttribute('aria-label')
    expect(chart).toContain(`${crfName3} none expected`)
    expect(chart).not.toContain('Per sample')
    // A long English center name is cut to the room left of its bar, by the width the font draws.
    const labels = view.locator('[data-testid="progress-center-chart"] text.label, [data-testid="progress-completion-chart"] text.label')
    const drawn = await labels.evaluateAll((texts) =>
      texts.map((t) => ({ text: t.firstChild?.textContent ?? '', left: (t as SVGTextElement).getBBox().x })),
    )
    const center = drawn.find((d) => d.text.startsWith('Western Medical'))
    expect(center?.text).toMatch(/… \(F[0-9A-Z]+\)$/)
    for (const d of drawn) expect(d.left, d.text).toBeGreaterThanOrEqual(0)
    await expectClean('progress')
  })

  it("a member limited to one of two centers sees that center's enrolment, and the plan as the whole project's, not the center's", async () => {
    const post = <T>(what: string, path: string, body?: unknown) => ok<T>(what, api<T>('POST', path, { token, body }))
    const centerIds: number[] = []
    for (const k of ['A', 'B']) {
      const body = { code: `M${k}${p}`.slice(0, 12).toUpperCase(), nameZh: `成员中心${k}`, nameEn: `Member center ${k}`, region: '' }
      centerIds.push((await post<{ id: number }>('center', '/api/centers', body)).id)
    }
    const study = await activeProject(`Two centers ${p}`, `TC-${p}`, centerIds)
    for (const centerId of [centerIds[0]!, centerIds[1]!, centerIds[1]!]) await enrol(study.id, study.queueId, centerId)
    const role = await post<{ id: number }>('role', `/api/projects/${study.id}/roles`, {
      name: `Center A ${p}`,
      allQueues: true,
      centerIds: [centerIds[0]],
    })
    const roles = await ok<{ items: { id: number; builtin: string | null }[] }>('roles', api('GET', '/api/admin/roles', { token }))
    const username = `centera_${p.toLowerCase()}`
    const password = 'CenterA2026ok'
    const created = await post<{ userId: number; password: string }>('user', '/api/admin/users', {
      name: `Center A ${p}`,
      username,
      roleIds: [roles.items.find((r) => r.builtin === 'dataEntry')!.id],
    })
    await post('member', `/api/projects/${study.id}/members`, { userId: created.userId, roleId: role.id })
    const session = await apiSignIn(username, created.password)
    await ok(
      'password',
      api('POST', '/api/admin/user/changePwd', { token: session.token, body: { id: session.userId, oldPwd: created.password, password } }),
    )
    for (const [lang, enrolled, plan, heading] of [
      ['en', '1 enrolled in your centers and queues', 'Project plan, all centers: 20', 'Cumulative enrolment in your centers and queues'],
      ['zh', '您的中心与队列已入组 1', '项目计划（全部中心）：20', '您的中心与队列的累计入组'],
    ] as const) {
      const { context, page: member } = await newPage(browser, { lang })
      try {
        await signIn(member, username, password)
        await member.goto(`/project/progress?id=${study.id}`)
        const view = member.locator(`[data-testid="pane"][data-path="/project/progress?id=${study.id}"]`)
        expect(await view.getByTestId('progress-enrolled').innerText()).toBe(enrolled)
        expect(await view.getByTestId('progress-project-plan').innerText()).toBe(plan)
        expect(await view.locator('#progress-enrolment').innerText()).toContain(heading)
        // No plan line drawn against this center's curve, as if the 20 were its target.
        await view.getByTestId('progress-enrolment-chart').waitFor()
        expect(await view.getByTestId('progress-plan-line').count()).toBe(0)
      } finally {
        await context.close()
      }
    }
  })

  it('opened by its address without a project, progress asks for one; choosing one shows its figures', async () => {
    // Opening a subject earlier made its project the current one: forget that choice.
    await page.evaluate(() => Object.keys(localStorage).forEach((k) => k.startsWith('currentProject.') && localStorage.removeItem(k)))
    await page.goto('/project/progress')
    const view = pane('/project/progress')
    const none = view.getByTestId('no-project')
    await none.getByText('Choose a current project first, or open "Project Progress" from a project\'s action menu').waitFor()
    await tabInto('[data-testid="no-project"] [data-testid="cmd-projects.switch"]')
    await page.keyboard.press('Enter')
    await page.getByTestId('palette-input').pressSequentially(`VS-${p}`)
    await page.locator(`[data-testid="palette-record-project-${projectId}"][aria-selected="true"]`).waitFor()
    await page.keyboard.press('Enter')
    await view.getByTestId('progress-enrolled').getByText('1 enrolled of 20 planned').waitFor()
    expect(await view.getByTestId('no-project').count()).toBe(0)
    await expectClean('progress of the current project')
  })

  it('the visit list marks a due visit, and a visit form opened before its window says the visit is not due yet, and when', async () => {
    const plan = await ok<SubjectSchedule>('schedule', api('GET', `/api/projects/${projectId}/subjects/${subjectId}/visits`, { token }))
    const visit = (name: string) => plan.visits.find((v) => v.name === name)!
    const [now, later] = [visit('Day 0 call'), visit('Week 4 call')]
    await page.goto(`/project/patientDetail?studyId=${projectId}&id=${subjectId}`)
    await page.getByTestId('subject-detail').waitFor()
    const notice = page.getByTestId('visit-not-due')
    // The visit list says which visits wait for this form now: Day 0 call is due, Week 4 call not yet.
    expect(await page.getByTestId(`subject-instance-${crfIds[0]}-v${now.visitId}`).innerText()).toContain('Due')
    expect(await page.getByTestId(`subject-instance-state-${crfIds[0]}-v${now.visitId}`).innerText()).toBe('Due')
    expect(await page.getByTestId(`subject-instance-state-${crfIds[0]}-v${later.visitId}`).count()).toBe(0)
    await tabInto(`[data-testid="subject-instance-${crfIds[0]}-v${later.visitId}"]`)
    await page.keyboard.press('Enter')
    await notice
      .getByText(
        `This visit is not due yet: its window opens on ${later.windowStart} (planned for ${later.plannedDate}). Values entered now count towards completion once it is due.`,
      )
      .waitFor()
    await expectClean('a visit not due yet')
    await tabIntoOn(page, `[data-testid="subject-instance-${crfIds[0]}-v${now.visitId}"]`, 40, 'Shift+Tab')
    await page.keyboard.press('Enter')
    await page.getByTestId(`subject-instance-${crfIds[0]}-v${now.visitId}`).and(page.locator('[aria-current="true"]')).waitFor()
    expect(await notice.count()).toBe(0)
  })

  it('a long breadcrumb in a narrow window ends in … and the navbar stays one line', async () => {
    await page.goto(`/project/follow-up?id=${projectId}`)
    await pane(`/project/follow-up?id=${projectId}`).getByTestId('followup-page').waitFor()
    await page.setViewportSize({ width: 900, height: 900 })
    try {
      await page.locator('.navbar-breadcrumb').getByText(`Visit study ${p}`).waitFor()
      const [left, right] = await Promise.all([
        page.locator('.navbar .bp6-align-left').boundingBox(),
        page.locator('.navbar .bp6-align-right').boundingBox(),
      ])
      expect(left && right && Math.abs(left.y - right.y) < 2 && left.x + left.width <= right.x + 1).toBe(true)
      const last = page.locator('.navbar-breadcrumb li:last-child > .bp6-breadcrumb')
      expect(await last.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 })
    }
  })
})
