/**
 * Data entry by keyboard only (issue 10): a research object's CRF with a sub form is filled,
 * saved with Ctrl+S, a saved value changed with a reason, its history read, a row added; then the
 * subject is compared side by side with another and the keyboard jumps to the difference.
 * The records (a CRF with a sub form, an active project, two subjects) are made through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import {
  adminPage,
  api,
  apiSignIn,
  baseUrl,
  cookie,
  launch,
  newPage,
  signIn,
  TOKEN_COOKIE,
  toastWith,
  runFromPalette,
  focusedTestId as focusedElement,
  choosePicture,
  whileHeld,
} from './browser.ts'
import { axeFindings, describeFindings } from './axe.ts'

const p = `DE${Date.now().toString(36).slice(-5).toUpperCase()}`
let browser: Browser
let context: BrowserContext
let page: Page
let token = ''
let projectId = 0
const subjects: { id: number; subjectNo: string }[] = []
const ids: Record<string, number> = {}

async function ok<T>(what: string, res: Promise<{ status: number; body: { code: number; msg: string; data?: T } }>): Promise<T> {
  const r = await res
  if (r.body.code !== 0) throw new Error(`${what}: ${r.status} ${r.body.msg}`)
  return r.body.data as T
}

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  context = page.context()
  token = (await cookie(context, TOKEN_COOKIE)) ?? ''
  const post = <T>(what: string, path: string, body?: unknown) => ok<T>(what, api<T>('POST', path, { token, body }))
  const center = await post<{ id: number }>('center', '/api/centers', { code: `${p}C`, nameZh: `中心 ${p}`, nameEn: `Center ${p}` })
  for (const [name, extra] of [
    ['WEIGHT', { dataType: 'decimal', unit: 'kg/m²' }],
    ['DRUG', {}],
  ] as const) {
    const made = await post<{ id: number }>(name, '/api/dictionary/indicators', {
      code: `${p}_${name}`,
      nameZh: name === 'WEIGHT' ? '体重' : '药物',
      nameEn: name === 'WEIGHT' ? 'Weight' : 'Drug',
      type: 'blank',
      display: 'input',
      ...extra,
    })
    ids[name] = made.id
  }
  const crf = await post<{ id: number }>('crf', '/api/templates', { name: `Baseline ${p}`, kind: 'crf' })
  await ok(
    'layout',
    api('PUT', `/api/templates/${crf.id}/layout`, {
      token,
      body: {
        sections: [
          { key: 's1', title: 'Vitals', repeating: false, items: [{ indicatorId: ids.WEIGHT, required: true }] },
          { key: 'meds', title: 'Medication', repeating: true, items: [{ indicatorId: ids.DRUG, required: true }] },
        ],
      },
    }),
  )
  await post('publish', `/api/scientific/form/saveCrfFormGenerateToDb?id=${crf.id}`)
  const version = await ok<{ id: number }>('version', api('GET', `/api/templates/${crf.id}/versions/1`, { token }))
  const project = await post<{ id: number; queues: { id: number }[] }>('project', '/api/projects', {
    scope: 'multi',
    base: { type: 'prospective', name: `Entry study ${p}`, number: `${p}-E`, groupType: 'group', plannedQuantity: 20, plannedGroups: 2 },
    queues: [{ name: 'Cohort A', key: 'A' }],
    forms: [{ templateId: crf.id, versionId: version.id }],
    centerIds: [center.id],
  })
  projectId = project.id
  await post('submit', `/api/projects/${projectId}/submit`)
  await post('pass', `/api/projects/${projectId}/pass`)
  for (let i = 0; i < 2; i++)
    subjects.push(
      await post<{ id: number; subjectNo: string }>('enrol', `/api/projects/${projectId}/subjects`, {
        queueId: project.queues[0]!.id,
        centerId: center.id,
        checklist: { inclusion: [], exclusion: [] },
      }),
    )
  // The second subject's form, as another person entered it.
  await post('save S2', '/api/scientific/form/saveOneFormInfo', {
    studyId: projectId,
    objectId: subjects[1]!.id,
    templateId: crf.id,
    rev: 0,
    values: { [ids.WEIGHT!]: '70.5' },
    rows: { meds: [{ values: { [ids.DRUG!]: 'aspirin' } }] },
  })
  ids.crf = crf.id
  ids.queue = project.queues[0]!.id
  ids.center = center.id
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

const detail = () => page.locator('[data-testid="subject-detail"]:visible')
const pane = () => detail().getByTestId('entry-pane')
const focusedTestId = () => page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-testid') ?? null)
const focusedRow = () => page.evaluate(() => document.activeElement?.closest('[data-testid^="row-"]')?.getAttribute('data-testid') ?? null)
/** The subject whose detail holds the focus and the focused element's text; null while the focus is on the page itself. */
const focusedIn = () =>
  page.evaluate(() => {
    const el = document.activeElement
    if (!el || el === document.body) return null
    const subject = el.closest('[data-testid="subject-detail"]')?.querySelector('[data-testid="subject-no"]')?.textContent ?? null
    return { subject, text: el.textContent }
  })

describe('data entry by keyboard', () => {
  it('fills a CRF with a sub form and saves it with Ctrl+S', async () => {
    await page.goto(`/project/patientDetail?studyId=${projectId}&id=${subjects[0]!.id}`)
    await detail().getByTestId('subject-no').getByText(subjects[0]!.subjectNo).waitFor()
    await pane().locator('[data-complete="true"]').waitFor()
    // Nothing saved yet: not labelled saved, and nothing to sign or delete.
    await pane().locator('[data-testid="save-state"][data-state="empty"]', { hasText: 'Not entered yet' }).waitFor()
    expect(await detail().getByTestId('cmd-dataEntry.signForm').count()).toBe(0)
    expect(await detail().getByTestId('cmd-dataEntry.deleteForm').count()).toBe(0)
    // The next empty required field: the weight, then the drug of the first row.
    await page.keyboard.press('Alt+E')
    expect(await focusedTestId()).toBe(`field-${p}_WEIGHT`)
    await page.keyboard.type('70.5')
    await page.keyboard.press('Alt+E')
    expect(await focusedTestId()).toBe(`field-${p}_DRUG`)
    expect(await focusedRow()).toBe('row-meds-0')
    await page.keyboard.type('aspirin')
    await page.keyboard.press('Alt+E')
    await toastWith(page, 'Every required field is filled').waitFor()
    await page.keyboard.press('Control+S')
    await toastWith(page, 'Save success').waitFor()
    await detail().locator(`[data-testid="subject-form-${ids.crf}"][data-state="saved"]`).waitFor()
    await expect.poll(() => pane().getAttribute('data-dirty')).toBe('false')
    // The record made by the first save can be signed and deleted, from buttons drawn without any other step.
    await expect.poll(() => detail().getByTestId('cmd-dataEntry.signForm').isEnabled()).toBe(true)
    await expect.poll(() => detail().getByTestId('cmd-dataEntry.deleteForm').isEnabled()).toBe(true)
  })

  it('the detail has no serious accessibility finding (axe, WCAG 2.1 AA)', async () => {
    expect(describeFindings(await axeFindings(page))).toEqual([])
  })

  it('a changed saved value asks a reason, and the field history shows it', async () => {
    // Back from the first row's drug over its delete button to the weight.
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Shift+Tab')
    expect(await focusedTestId()).toBe(`field-${p}_WEIGHT`)
    await page.keyboard.press('Control+A')
    await page.keyboard.type('72')
    await page.keyboard.press('Control+S')
    const reason = page.getByTestId('reason-input')
    await reason.waitFor()
    // No reason: refused on the spot, nothing sent.
    await page.keyboard.press('Control+Enter')
    await page.getByText('Please give a reason').waitFor()
    await page.keyboard.type('typo corrected')
    await page.keyboard.press('Control+Enter')
    await toastWith(page, 'Save success').last().waitFor()
    await expect.poll(() => reason.count()).toBe(0)
    await expect.poll(() => pane().getAttribute('data-dirty')).toBe('false')

    // The focus stayed in the weight: its history.
    expect(await focusedTestId()).toBe(`field-${p}_WEIGHT`)
    await page.keyboard.press('Alt+H')
    const history = page.getByTestId('field-history')
    await history.waitFor()
    const changed = history.locator('[data-testid="history-row"][data-action="update"]')
    await changed.waitFor()
    expect(await changed.innerText()).toContain('typo corrected')
    expect(await changed.innerText()).toContain('72')
    expect(await changed.innerText()).toContain('70.5')
    await page.keyboard.press('Escape')
    await expect.poll(() => history.count()).toBe(0)
  })

  it("by mouse: a click in a field, then on the toolbar's field history, opens that field's history", async () => {
    await page.getByTestId(`field-${p}_WEIGHT`).click()
    await page.locator('[data-testid="cmd-dataEntry.fieldHistory"]:visible').first().click()
    const history = page.getByTestId('field-history')
    await history.locator('[data-testid="history-row"][data-action="update"]').getByText('typo corrected').waitFor()
    const activeId = () =>
      page.evaluate(() =>
        document.activeElement?.closest('.bp6-overlay') ? 'drawer' : document.activeElement?.getAttribute('data-testid'),
      )
    await expect.poll(activeId).toBe('drawer')
    await page.keyboard.press('Escape')
    await expect.poll(() => history.count()).toBe(0)
    // The focus went back to the button; the next step goes on from the weight.
    await expect.poll(activeId).toBe('cmd-dataEntry.fieldHistory')
    await page.getByTestId(`field-${p}_WEIGHT`).click()
  })

  it('adds a sub-form row by keyboard and saves it without a reason', async () => {
    // Closing the history gave the focus back to the field.
    await expect.poll(focusedTestId).toBe(`field-${p}_WEIGHT`)
    await page.keyboard.press('Alt+Shift+B')
    await expect.poll(focusedRow).toBe('row-meds-1')
    await page.keyboard.type('heparin')
    await page.keyboard.press('Control+S')
    await expect.poll(() => pane().getAttribute('data-dirty')).toBe('false')
    await expect.poll(() => page.getByTestId('reason-dialog').count()).toBe(0)
  })

  it('deleting a sub-form row, by its command or its button, leaves the focus in the row now in its place', async () => {
    await page.keyboard.press('Alt+Shift+B')
    await expect.poll(focusedRow).toBe('row-meds-2')
    await page.keyboard.press('Alt+Shift+D')
    await expect.poll(() => pane().getByTestId('row-meds-2').count()).toBe(0)
    // The last row went: the one before it has the focus, in its first field.
    await expect.poll(focusedRow).toBe('row-meds-1')
    expect(await focusedTestId()).toBe(`field-${p}_DRUG`)

    await page.keyboard.press('Alt+Shift+B')
    await expect.poll(focusedRow).toBe('row-meds-2')
    await page.keyboard.press('Shift+Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Remove row 3')
    await page.keyboard.press('Enter')
    await expect.poll(() => pane().getByTestId('row-meds-2').count()).toBe(0)
    await expect.poll(focusedRow).toBe('row-meds-1')
    expect(await focusedTestId()).toBe(`field-${p}_DRUG`)
    await expect.poll(() => pane().getAttribute('data-dirty')).toBe('false')
    // Rows added and removed again leave the saved values: the form says saved, not unsaved.
    await expect.poll(() => pane().getByTestId('save-state').getAttribute('data-state')).toBe('saved')
  })

  it("a sub-form field's history is its own row's, and a row not saved yet has none", async () => {
    // In the second row's drug: heparin, not the first row's aspirin.
    expect(await focusedRow()).toBe('row-meds-1')
    await page.keyboard.press('Alt+H')
    const history = page.getByTestId('field-history')
    await history.locator('[data-testid="history-row"]').first().waitFor()
    expect(await page.locator('.bp6-drawer-header').innerText()).toContain('(row 2)')
    const rows = await history.locator('[data-testid="history-row"]').allInnerTexts()
    expect(rows.join('\n')).toContain('heparin')
    expect(rows.join('\n')).not.toContain('aspirin')
    await page.keyboard.press('Escape')
    await expect.poll(() => history.count()).toBe(0)
    await expect.poll(focusedRow).toBe('row-meds-1')

    await page.keyboard.press('Alt+Shift+B')
    await expect.poll(focusedRow).toBe('row-meds-2')
    await page.keyboard.press('Alt+H')
    await toastWith(page, 'This row has not been saved yet, so it has no history').waitFor()
    expect(await history.count()).toBe(0)
    await page.keyboard.press('Alt+Shift+D')
    await expect.poll(focusedRow).toBe('row-meds-1')
    await expect.poll(() => pane().getAttribute('data-dirty')).toBe('false')
  })

  it("the subject's whole trail names the sub-form row of each entry", async () => {
    await detail().getByTestId('subject-history-tab').click()
    const trail = detail().getByTestId('history-table')
    const heparin = trail.locator('[data-testid="history-row"]', { hasText: 'heparin' })
    await heparin.first().waitFor()
    expect(await heparin.first().getByTestId('history-field').innerText()).toMatch(/\(row 2\)$/)
    const aspirin = trail.locator('[data-testid="history-row"]', { hasText: 'aspirin' })
    expect(await aspirin.first().getByTestId('history-field').innerText()).toMatch(/\(row 1\)$/)
    expect(
      await trail.locator('[data-testid="history-row"][data-action="rowAdd"]').first().getByTestId('history-field').innerText(),
    ).toMatch(/^Row [12]$/)
    await detail().getByTestId('subject-forms-tab').click()
    await pane().waitFor()
  })

  it('next and previous research object put the focus in the detail that opens, by hotkey and from the palette', async () => {
    const form = `Baseline ${p}`
    await page.keyboard.press('Alt+Shift+PageDown')
    await detail().getByTestId('subject-no').getByText(subjects[1]!.subjectNo).waitFor()
    // On the open form's title: Tab reaches its buttons and fields, Alt+E its next empty field.
    await expect.poll(focusedIn).toEqual({ subject: subjects[1]!.subjectNo, text: form })
    await runFromPalette(page, 'previous research object', 'dataEntry.previousSubject')
    await detail().getByTestId('subject-no').getByText(subjects[0]!.subjectNo).waitFor()
    await expect.poll(focusedIn).toEqual({ subject: subjects[0]!.subjectNo, text: form })
    await pane().locator('[data-complete="true"]').waitFor()
  })

  it('compares with another subject side by side and jumps to the differences', async () => {
    await page.keyboard.press('Alt+Shift+X')
    const search = page.getByTestId('compare-subject')
    await search.waitFor()
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.type(subjects[1]!.subjectNo)
    await page.getByTestId('compare-subjects').getByText(subjects[1]!.subjectNo).waitFor()
    await page.keyboard.press('Enter')
    // Two details on screen, each telling how many fields differ: the weight and the second row.
    await expect.poll(() => page.locator('[data-testid="entry-pane"]:visible').count()).toBe(2)
    // The keyboard goes on in the pane just opened, on its form's title.
    await expect.poll(focusedIn).toEqual({ subject: subjects[1]!.subjectNo, text: `Baseline ${p}` })
    const counts = page.locator('[data-testid="compare-count"]:visible')
    await expect
      .poll(() => counts.allInnerTexts())
      .toEqual(['Compared side by side: 2 differences', 'Compared side by side: 2 differences'])
    // The first subject's pane scrolled to its end, so the two are out of line.
    await page.evaluate(() => {
      const detail = document.querySelectorAll('[data-testid="subject-detail"]')[0]!
      for (let el = detail.parentElement; el; el = el.parentElement) {
        if (el.scrollHeight > el.clientHeight && getComputedStyle(el).overflowY === 'auto') return void (el.scrollTop = el.scrollHeight)
      }
    })
    // The other subject's pane has the focus: the jump lands on its weight, and the first pane
    // shows its own weight at the same height, side by side.
    await page.keyboard.press('Alt+D')
    await expect.poll(focusedTestId).toBe(`field-${p}_WEIGHT`)
    const weightTops = () =>
      page
        .locator(`[data-testid="entry-pane"]:visible .form-section:not(.form-subform) > [data-testid="field-${p}_WEIGHT"]`)
        .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)))
    await expect.poll(async () => (await weightTops()).length).toBe(2)
    await expect.poll(async () => Math.abs((await weightTops()).reduce((x, y) => x - y))).toBeLessThanOrEqual(1)
    expect(
      await page.evaluate(
        () => document.activeElement?.closest('[data-testid="subject-detail"]')?.querySelector('[data-testid="subject-no"]')?.textContent,
      ),
    ).toBe(subjects[1]!.subjectNo)
    // The row only this subject has is highlighted in its pane.
    const extraRow = page.locator('[data-testid="entry-pane"]:visible [data-testid="row-meds-1"] [data-field]')
    expect(await extraRow.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid')
    // Half a 1400 px window each: the form list sits above the form, which takes the pane's
    // whole width, so no input is squeezed beside its label.
    for (const detail of await page.locator('[data-testid="subject-detail"]:visible').all()) {
      const layout = await detail.evaluate((el) => ({
        body: getComputedStyle(el.querySelector('.subject-detail-body')!).flexDirection,
        input: el.querySelector('.form-field input.bp6-input')!.getBoundingClientRect().width,
      }))
      expect(layout.body).toBe('column')
      expect(layout.input).toBeGreaterThan(200)
    }
  })

  it('in a 1440 px (and a 1280 px) window a differing value’s input and unit lie inside its highlight, clear of its edge', async () => {
    const weights = page.locator(`[data-testid="entry-pane"]:visible .form-section:not(.form-subform) > [data-testid="field-${p}_WEIGHT"]`)
    try {
      for (const width of [1440, 1280]) {
        await page.setViewportSize({ width, height: 900 })
        await expect.poll(() => weights.count()).toBe(2)
        for (const field of await weights.all()) {
          await expect.poll(() => field.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid')
          const highlight = (await field.boundingBox())!
          for (const part of [field.locator('input'), field.locator('.form-unit')]) {
            const box = (await part.boundingBox())!
            // Text is drawn a little past its box (the ² of kg/m²): 4 px keep it off the outline.
            const where = `${width} px: ${JSON.stringify(box)} in ${JSON.stringify(highlight)}`
            expect(box.x, where).toBeGreaterThanOrEqual(highlight.x + 4)
            expect(box.x + box.width, where).toBeLessThanOrEqual(highlight.x + highlight.width - 4)
            expect(box.y, where).toBeGreaterThanOrEqual(highlight.y)
            expect(box.y + box.height, where).toBeLessThanOrEqual(highlight.y + highlight.height)
          }
        }
      }
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 })
    }
  })

  it('the compare dialog’s and the field history’s close buttons are named in the interface’s language (关闭, not Close), and no select caret reads English', async () => {
    const { context: zhContext, page: zh } = await newPage(browser, { lang: 'zh' })
    await zhContext.addCookies(await context.cookies())
    await zhContext.addCookies([{ name: 'language', value: 'zh', url: baseUrl() }])
    await zh.goto(`/project/patientDetail?studyId=${projectId}&id=${subjects[0]!.id}`)
    await zh.getByTestId('entry-pane').first().waitFor()
    await zh.keyboard.press('Alt+Shift+X')
    const dialog = zh.getByRole('dialog', { name: '对比…' })
    await dialog.getByRole('button', { name: '关闭', exact: true }).waitFor()
    expect(await dialog.getByRole('button', { name: 'Close', exact: true }).count()).toBe(0)
    await zh.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    // The field history drawer's too.
    await zh.getByTestId(`field-${p}_WEIGHT`).click()
    await zh.keyboard.press('Alt+H')
    const drawer = zh.locator('.bp6-drawer', { has: zh.getByTestId('field-history') })
    await drawer.getByRole('button', { name: '关闭', exact: true }).waitFor()
    expect(await drawer.getByRole('button', { name: 'Close', exact: true }).count()).toBe(0)
    await zh.keyboard.press('Escape')
    // A select's caret reads no English either: Blueprint titles it "Open dropdown".
    await zh.goto(`/patient/index?studyId=${projectId}`)
    const select = zh.locator('.bp6-html-select').first()
    await select.waitFor()
    expect(await zh.locator('.bp6-html-select svg title').count()).toBe(0)
    expect(await select.locator('.bp6-icon').first().getAttribute('aria-hidden')).toBe('true')
    await zhContext.close()
  })
})

describe('a member who may enter data but not change saved data', () => {
  it('sees saved values read-only and saved rows without remove, fills a new row and saves it without a reason', async () => {
    const post = <T>(what: string, path: string, body?: unknown) => ok<T>(what, api<T>('POST', path, { token, body }))
    const subject = await post<{ id: number; subjectNo: string }>('enrol', `/api/projects/${projectId}/subjects`, {
      queueId: ids.queue,
      centerId: ids.center,
      checklist: { inclusion: [], exclusion: [] },
    })
    await post('save', '/api/scientific/form/saveOneFormInfo', {
      studyId: projectId,
      objectId: subject.id,
      templateId: ids.crf,
      rev: 0,
      values: { [ids.WEIGHT!]: '61' },
      rows: { meds: [{ values: { [ids.DRUG!]: 'metformin' } }] },
    })
    const role = await post<{ id: number }>('role', `/api/projects/${projectId}/roles`, {
      name: `Entry only ${p}`,
      authorities: ['enterData'],
      allQueues: true,
      allCenters: true,
    })
    const roles = await ok<{ items: { id: number; builtin: string | null }[] }>('roles', api('GET', '/api/admin/roles', { token }))
    const username = `clerk_${p.toLowerCase()}`
    const password = 'Clerk2026ok'
    const created = await post<{ userId: number; password: string }>('user', '/api/admin/users', {
      name: `Clerk ${p}`,
      username,
      roleIds: [roles.items.find((r) => r.builtin === 'dataEntry')!.id],
    })
    await post('member', `/api/projects/${projectId}/members`, { userId: created.userId, roleId: role.id })
    const session = await apiSignIn(username, created.password)
    await ok(
      'password',
      api('POST', '/api/admin/user/changePwd', { token: session.token, body: { id: session.userId, oldPwd: created.password, password } }),
    )

    const { context: theirs, page: clerk } = await newPage(browser, { lang: 'en' })
    try {
      await signIn(clerk, username, password)
      await clerk.goto(`/project/patientDetail?studyId=${projectId}&id=${subject.id}`)
      const entry = clerk.locator('[data-testid="subject-detail"]:visible').getByTestId('entry-pane')
      await entry.getByTestId('saved-locked').waitFor()
      const weight = entry.getByTestId(`field-${p}_WEIGHT`).locator('input')
      expect(await weight.evaluate((el) => (el as HTMLInputElement).readOnly)).toBe(true)
      expect(
        await entry
          .getByTestId('row-meds-0')
          .locator('input')
          .evaluate((el) => (el as HTMLInputElement).readOnly),
      ).toBe(true)
      expect(await entry.getByTestId('row-meds-0').getByRole('button', { name: 'Remove row 1' }).count()).toBe(0)
      // The delete-row hotkey in the saved row says why it does nothing, as the hidden button cannot.
      await entry.getByTestId('row-meds-0').locator('input').focus()
      await clerk.keyboard.press('Alt+Shift+D')
      await toastWith(clerk, "This row is saved: removing it is not among your project role's authorities").waitFor()
      expect(await entry.getByTestId('row-meds-0').count()).toBe(1)
      await entry.getByTestId('add-row-meds').click()
      const fresh = entry.getByTestId('row-meds-1').locator('input')
      expect(await fresh.evaluate((el) => (el as HTMLInputElement).readOnly)).toBe(false)
      await fresh.fill('insulin')
      await clerk.keyboard.press('Control+S')
      await toastWith(clerk, 'Save success').waitFor()
      expect(await clerk.getByTestId('reason-dialog').count()).toBe(0)
    } finally {
      await theirs.close()
    }
    const stored = await ok<{ rows: Record<string, { values: Record<string, string> }[]> }>(
      'form',
      api('GET', '/api/scientific/form/getOneFormInfo', {
        token,
        query: { studyId: String(projectId), objectId: String(subject.id), templateId: String(ids.crf) },
      }),
    )
    expect(stored.rows.meds!.map((r) => r.values[ids.DRUG!])).toEqual(['metformin', 'insulin'])
  })
})

describe("a subject's pictures", () => {
  it('the attachments tab: Upload keeps the focus while a picture uploads; a deleted picture leaves it on the row in its place, the last on Upload', async () => {
    // A page of its own: the one above shows two subjects side by side.
    const page = await adminPage(browser)
    const detail = () => page.getByTestId('subject-detail')
    await page.goto(`/project/patientDetail?studyId=${projectId}&id=${subjects[0]!.id}`)
    await detail().getByTestId('subject-attachments-tab').focus()
    await page.keyboard.press('Enter')
    const panel = detail().getByTestId('attachment-panel')
    await panel.getByTestId('attachment-upload').focus()
    await whileHeld(page, '**/api/public/attachment/saveAttachmentToDetail**', 'POST', async () => {
      await choosePicture(page, 'wound.png')
      await panel.locator('.bp6-progress-bar').waitFor()
      expect(await focusedElement(page)).toBe('attachment-upload')
    })
    await panel.locator('.attachment-row', { hasText: 'wound.png' }).waitFor()
    await expect.poll(() => focusedElement(page)).toBe('attachment-upload')
    await choosePicture(page, 'scar.png')
    await expect.poll(() => panel.locator('.attachment-row').count()).toBe(2)

    const deleteFirst = async () => {
      await panel.locator('.attachment-row').first().getByTestId('cmd-attachments.delete').focus()
      await page.keyboard.press('Enter')
      await page.getByTestId('reason-input').fill('wrong subject')
      await page.getByTestId('reason-ok').focus()
      await page.keyboard.press('Enter')
      await page.getByTestId('reason-dialog').waitFor({ state: 'detached' })
    }
    await deleteFirst()
    await expect.poll(() => panel.locator('.attachment-row').count()).toBe(1)
    await expect.poll(() => focusedElement(page)).toBe('cmd-attachments.delete')
    await deleteFirst()
    await panel.locator('.attachment-row').waitFor({ state: 'detached' })
    await expect.poll(() => focusedElement(page)).toBe('attachment-upload')
    await page.context().close()
  })
})

describe('deleting and signing a form by their buttons', () => {
  /** A page of its own on the subject's detail, the command's button focused (once enabled) and pressed. */
  async function pressOn(subject: { id: number }, command: string) {
    const page = await adminPage(browser)
    const detail = () => page.getByTestId('subject-detail')
    await page.goto(`/project/patientDetail?studyId=${projectId}&id=${subject.id}`)
    await detail().getByTestId('entry-pane').locator('[data-complete="true"]').waitFor()
    const button = detail().getByTestId(`cmd-${command}`)
    await expect.poll(() => button.isEnabled()).toBe(true)
    await button.focus()
    await page.keyboard.press('Enter')
    return { page, detail, button }
  }

  it('a deleted form leaves the focus on its title, not on the page', async () => {
    const { page, detail } = await pressOn(subjects[0]!, 'dataEntry.deleteForm')
    await page.getByTestId('reason-input').fill('entered for the wrong subject')
    await page.getByTestId('reason-ok').focus()
    await page.keyboard.press('Enter')
    await toastWith(page, 'The form was deleted').waitFor()
    await detail().locator(`[data-testid="subject-form-${ids.crf}"][data-state="empty"]`).waitFor()
    await expect
      .poll(() => page.evaluate(() => (document.activeElement?.closest('.subject-entry-head') ? document.activeElement.tagName : null)))
      .toBe('H3')
    await page.context().close()
  })

  it('after the confirmation the focus stays on Sign, which has nothing left to do', async () => {
    const { page, detail, button: sign } = await pressOn(subjects[1]!, 'dataEntry.signForm')
    await page.getByTestId('confirm-message').waitFor()
    // The alert takes the focus on its confirm button once it has opened: Enter answers yes.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.bp6-alert-footer') != null)).toBe(true)
    await page.keyboard.press('Enter')
    await toastWith(page, 'The form was signed').waitFor()
    await detail().locator(`[data-testid="subject-form-${ids.crf}"][data-state="signed"]`).waitFor()
    await expect.poll(() => sign.getAttribute('aria-disabled')).toBe('true')
    await expect.poll(() => focusedElement(page)).toBe('cmd-dataEntry.signForm')
    await page.context().close()
  })
})
