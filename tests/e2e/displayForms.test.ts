/**
 * Which forms a subject's detail shows, and in what order (issue 10 item 3: getDisplayFormInfo /
 * saveDisplayFormInfo), chosen by keyboard: the palette opens the dialog, Alt+↓ moves a form,
 * Space hides one, Save keeps the choice for this user and project, and a reload still shows it.
 * Two CRFs, an active project and one subject are made through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPage, cookie, launch, runFromPalette, toastWith } from './browser.ts'
import { publishCrf, seedCrf, seedIndicators, seedStudy } from './seed.ts'

const p = `DF${Date.now().toString(36).slice(-5).toUpperCase()}`
let browser: Browser
let page: Page
let projectId = 0
let subjectId = 0
const crfIds: number[] = []

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  const token = (await cookie(page.context(), TOKEN_COOKIE)) ?? ''
  const indicatorIds = await seedIndicators(token, p, 2)
  const forms: { templateId: number; versionId: number }[] = []
  for (const [i, name] of [`History ${p}`, `Labs ${p}`].entries()) {
    const id = await seedCrf(token, name, [indicatorIds[i]!])
    crfIds.push(id)
    forms.push({ templateId: id, versionId: await publishCrf(token, id) })
  }
  const study = await seedStudy(token, p, { forms })
  projectId = study.projectId
  subjectId = study.subjects[0]!.id
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

const shownForms = () =>
  page
    .getByTestId('subject-forms')
    .locator('[data-testid^="subject-form-"]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-testid')!.slice('subject-form-'.length))))

describe('the forms a subject shows', () => {
  it('are reordered and hidden from the dialog by keyboard, and stay so after a reload', async () => {
    await page.goto(`/project/patientDetail?studyId=${projectId}&id=${subjectId}`)
    await expect.poll(shownForms).toEqual(crfIds)

    await runFromPalette(page, 'Choose and order forms', 'dataEntry.chooseForms')
    const dialog = page.getByTestId('display-forms-dialog')
    await dialog.waitFor()
    const [history, labs] = crfIds as [number, number]
    // The first form has the focus as the dialog opens.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`display-form-${history}`)
    await page.keyboard.press('Alt+ArrowDown')
    const order = () => dialog.locator('input[type="checkbox"]').evaluateAll((els) => els.map((e) => e.id))
    await expect.poll(order).toEqual([`display-form-${labs}`, `display-form-${history}`])
    // The moved form keeps the focus in its new place; Space hides it.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`display-form-${history}`)
    await page.keyboard.press('Space')
    expect(await page.locator(`#display-form-${history}`).isChecked()).toBe(false)
    await dialog.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'The form list was saved').waitFor()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(shownForms).toEqual([labs])

    await page.reload()
    await expect.poll(shownForms).toEqual([labs])
    await runFromPalette(page, 'Choose and order forms', 'dataEntry.chooseForms')
    await dialog.waitFor()
    expect(await order()).toEqual([`display-form-${labs}`, `display-form-${history}`])
    expect(await page.locator(`#display-form-${history}`).isChecked()).toBe(false)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
  })

  it('an indicator chosen as a list column by keyboard is shown, and stays after a reload', async () => {
    await page.goto(`/patient/index?studyId=${projectId}`)
    await page.getByTestId('subject-list').waitFor()
    await runFromPalette(page, 'Choose research object list columns', 'subjectList.chooseColumns')
    const dialog = page.getByTestId('subject-columns-dialog')
    await dialog.waitFor()
    // The first indicator has the focus once the list arrives; Space ticks it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toMatch(/^column-/)
    await page.getByTestId(`column-${p}_1`).focus()
    await page.keyboard.press('Space')
    expect(await page.getByTestId(`column-${p}_1`).isChecked()).toBe(true)
    await dialog.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Columns saved').waitFor()
    await dialog.waitFor({ state: 'detached' })
    const headers = () => page.locator('.bp6-table-quadrant-main .bp6-table-column-headers').innerText()
    await expect.poll(headers).toContain('Systolic pressure 1')
    await page.reload()
    await expect.poll(headers).toContain('Systolic pressure 1')
  })
})
