/**
 * Issue 4 item 8, the template side: a CRF designed with the keyboard only (palette → new CRF →
 * name → save; three indicators added from the dictionary picker; one moved up with Alt+↑; one
 * marked required; saved with Ctrl+S), previewed (the three fields render; the required one
 * refuses an empty value), published (Alt+Shift+P), then previewed in English and in Chinese
 * after switching the language through the palette. The indicators are made through the API first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPage, api, cookie, launch, toastWith, runFromPalette } from './browser.ts'
import { choices } from '../support/choices.ts'

let browser: Browser
let page: Page
const p = `e${Date.now().toString(36)}`
const codes = { sbp: `${p}_sbp`, smk: `${p}_smk`, vis: `${p}_vis` }
const crfName = `CRF ${p}`
let designerUrl = ''

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser, null)
  const context = page.context()
  const token = await cookie(context, TOKEN_COOKIE)
  if (!token) throw new Error('no session cookie after sign-in')
  // A field off the form, which the visit date depends on (its code does not start with p, so the picker never lists it).
  const consent = await api<{ id: number }>('POST', '/api/dictionary/indicators', {
    token,
    body: { code: `consent_${p}`, nameZh: '知情同意', nameEn: 'Consent', type: 'single', display: 'radio', options: choices('是', '否') },
  })
  if (!consent.body.data) throw new Error(`consent: ${consent.status} ${consent.body.msg}`)
  const indicators = [
    {
      code: codes.sbp,
      nameZh: '收缩压',
      nameEn: 'Systolic pressure',
      type: 'blank',
      display: 'input',
      dataType: 'integer',
      unit: 'mmHg',
      minimum: 50,
      maximum: 250,
    },
    { code: codes.smk, nameZh: '吸烟', nameEn: 'Smoker', type: 'single', display: 'radio', options: choices('是', '否') },
    {
      code: codes.vis,
      nameZh: '就诊日期',
      nameEn: 'Visit date',
      type: 'date',
      display: 'input',
      dateFormat: 'YYYY-MM-DD',
      dependentFieldId: consent.body.data.id,
      dependentValue: '1',
    },
  ]
  for (const body of indicators) {
    const res = await api('POST', '/api/dictionary/indicators', { token, body })
    if (res.body.code !== 0) throw new Error(`indicator ${body.code}: ${res.status} ${res.body.msg}`)
  }
})
afterAll(async () => {
  await browser?.close()
})

const fieldCodes = () =>
  page.locator('[data-testid="template-preview"] [data-field]').evaluateAll((els) => els.map((e) => e.getAttribute('data-code')))
const itemCodes = () => page.getByTestId('designer-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-code')))
const label = (code: string) => page.locator(`[data-field][data-code="${code}"] .form-field-label`)

describe('a CRF designed with the keyboard', () => {
  it('is created from the palette and opens in the designer', async () => {
    await runFromPalette(page, 'New CRF', 'templates.newCrf')
    const name = page.getByTestId('template-name')
    await name.waitFor()
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.type(crfName)
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/dataDictionary\/edit-crf-temp\?id=\d+$/)
    designerUrl = page.url()
    await page.locator('[data-testid="designer"] h4', { hasText: crfName }).waitFor()
    expect(await page.getByTestId('designer-state').textContent()).toContain('草稿 v1')
  })

  it('gets three indicators from the picker, moves one up with Alt+↑, marks one required, saves with Ctrl+S', async () => {
    await page.keyboard.press('Alt+Shift+A')
    const search = page.getByTestId('indicator-search')
    await search.waitFor()
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.type(p)
    await page.locator('[data-testid="indicator-option"]').nth(2).waitFor()
    expect(await page.getByTestId('indicator-option').count()).toBe(3)
    for (const key of ['Enter', 'ArrowDown', 'Enter', 'ArrowDown', 'Enter']) await page.keyboard.press(key)
    expect(await page.locator('[data-testid="indicator-option"][aria-selected="true"]').count()).toBe(3)
    await page.keyboard.press('Control+Enter')
    await search.waitFor({ state: 'detached' })
    await page.getByTestId('designer-item').nth(2).waitFor()
    expect(await itemCodes()).toEqual([codes.sbp, codes.smk, codes.vis])
    // The visit date depends on a field this form does not hold: named, with its value's label, and a warning.
    const vis = page.locator(`[data-testid="designer-item"][data-code="${codes.vis}"]`)
    // The field off the form is fetched to be named.
    await expect.poll(() => vis.locator('.designer-item-dep').textContent()).toBe('当“知情同意”为“是 (1)”时显示')
    expect(await vis.getByTestId('dependent-off-form').textContent()).toBe('依赖字段“知情同意”不在此表单上，本字段将一直显示')
    expect(await page.getByTestId('dependent-off-form').count()).toBe(1)

    // The last one added has the focus and the selection: Alt+↑ moves it above the smoker field.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-code'))).toBe(codes.vis)
    await page.keyboard.press('Alt+ArrowUp')
    await expect.poll(itemCodes).toEqual([codes.sbp, codes.vis, codes.smk])
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-code'))).toBe(codes.vis)

    // ↑ selects the blood pressure; Tab reaches its Required box; Space ticks it.
    await page.keyboard.press('ArrowUp')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-code'))).toBe(codes.sbp)
    await page.keyboard.press('Tab')
    await page.keyboard.press('Space')
    expect(await page.locator(`[data-testid="designer-item"][data-code="${codes.sbp}"] input[type="checkbox"]`).isChecked()).toBe(true)
    await page.locator('[data-testid="designer"][data-dirty="true"]').waitFor()

    await page.keyboard.press('Control+S')
    await page.locator('[data-testid="designer"][data-dirty="false"]').waitFor()
    await page.getByTestId('pending-state').waitFor()
  })

  it('previews the three fields in order, and the required one refuses an empty value', async () => {
    await page.keyboard.press('Alt+Shift+V')
    await page.waitForURL(/\/dataDictionary\/previewCRF\?id=\d+$/)
    await page.getByTestId('template-preview').waitFor()
    await expect.poll(fieldCodes).toEqual([codes.sbp, codes.vis, codes.smk])
    expect((await label(codes.sbp).textContent())?.replace('*', '')).toBe('收缩压')
    expect(await page.locator(`[data-field][data-code="${codes.sbp}"] .form-required`).count()).toBe(1)
    expect(await page.locator(`[data-field][data-code="${codes.smk}"] input[type="radio"]`).count()).toBe(2)
    // A date is text in its configured format, whatever order the browser's own date control would show.
    const visit = page.locator(`[data-field][data-code="${codes.vis}"] input.bp6-input`)
    expect(await visit.getAttribute('type')).toBe('text')
    expect(await page.locator(`[data-field][data-code="${codes.vis}"] .form-field-hint`).textContent()).toBe('格式 YYYY-MM-DD')
    expect(await visit.getAttribute('placeholder')).toBe('YYYY-MM-DD')
    expect(await page.locator(`[data-field][data-code="${codes.sbp}"]`).textContent()).toContain('mmHg')

    const validate = page.getByTestId('preview-validate')
    await validate.focus()
    await page.keyboard.press('Enter')
    const sbpError = page.locator(`[data-field][data-code="${codes.sbp}"] .form-field-error`)
    expect(await sbpError.textContent()).toBe('请输入收缩压')
    expect(await page.getByTestId('preview-result').textContent()).toContain('1')
    // The focus goes to the refused field once its message is drawn; a value out of range is refused with its bounds.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-code'))).toBe(codes.sbp)
    await page.keyboard.type('300')
    await expect.poll(() => sbpError.textContent()).toBe('请输入50到250之间的值')
    for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace')
    await page.keyboard.type('120')
    // Enter goes on to the next field (the visit date), it submits nothing.
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-code'))).toBe(codes.vis)
    await expect.poll(() => page.locator('.form-field-error').count()).toBe(0)

    // A year-first spelling reads as the format once the field is left; a run of the format's digits at once.
    const visitError = page.locator(`[data-field][data-code="${codes.vis}"] .form-field-error`)
    await page.keyboard.type('2024/6/9')
    await page.keyboard.press('Enter')
    await expect.poll(() => visit.inputValue()).toBe('2024-06-09')
    await visit.focus()
    await page.keyboard.press('Control+A')
    await page.keyboard.type('20231130')
    expect(await visit.inputValue()).toBe('2023-11-30')
    // Month first or day first cannot be told apart: refused with the format, never guessed.
    await page.keyboard.press('Control+A')
    await page.keyboard.type('06/09/2024')
    await page.keyboard.press('Enter')
    await expect.poll(() => visitError.textContent()).toBe('不符合格式YYYY-MM-DD')
    expect(await visit.inputValue()).toBe('06/09/2024')
    // Ctrl+; enters today (the browser's own day); the picker's choice arrives in the format.
    await visit.focus()
    await page.keyboard.press('Control+;')
    const today = await page.evaluate(() => {
      const d = new Date()
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
    })
    await expect.poll(() => visit.inputValue()).toBe(today)
    await page.locator(`[data-field][data-code="${codes.vis}"] .form-date-picker`).fill('2022-02-28')
    await expect.poll(() => visit.inputValue()).toBe('2022-02-28')
    await expect.poll(() => page.locator('.form-field-error').count()).toBe(0)
    expect(await page.getByTestId('preview-result').textContent()).toBe('全部字段校验通过')
  })

  it('is published with Alt+Shift+P after a confirmation', async () => {
    await page.keyboard.press('Alt+Shift+P')
    await page.getByTestId('confirm-message').filter({ hasText: '确定发布为版本 1 吗？' }).waitFor()
    // The alert holds the focus; Tab reaches its dialog, then its confirm button.
    for (let i = 0; i < 3; i++) {
      if ((await page.evaluate(() => document.activeElement?.textContent)) === '确定') break
      await page.keyboard.press('Tab')
    }
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('确定')
    await page.keyboard.press('Enter')
    await toastWith(page, '发布成功，当前版本为 1').waitFor()
    await page.getByTestId('preview-shown-version').filter({ hasText: '已发布 v1' }).waitFor()
  })

  it('shows its labels in English, then in Chinese again, after switching the language in the palette', async () => {
    await runFromPalette(page, 'English', 'view.lang.en')
    await label(codes.sbp).filter({ hasText: 'Systolic pressure' }).waitFor()
    expect((await label(codes.vis).textContent())?.trim()).toBe('Visit date')
    expect((await label(codes.smk).textContent())?.trim()).toBe('Smoker')
    expect(await page.getByTestId('preview-validate').textContent()).toBe('Validate')

    await runFromPalette(page, '中文', 'view.lang.zh')
    await label(codes.sbp).filter({ hasText: '收缩压' }).waitFor()
    expect((await label(codes.vis).textContent())?.trim()).toBe('就诊日期')
    expect((await label(codes.smk).textContent())?.trim()).toBe('吸烟')
  })

  it('a new section moved to the top by its Move up keeps the focus there, on a button with nothing left to do', async () => {
    await page.goto(designerUrl)
    await page.getByTestId('designer').waitFor()
    await page.keyboard.press('Alt+Shift+S')
    const sections = page.locator('[data-testid^="designer-section-"]')
    await expect.poll(() => sections.count()).toBe(2)
    const added = (await sections.nth(1).getAttribute('data-testid'))!
    // From the new section's title: its repeating switch, then Move section up.
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('分节上移')
    await page.keyboard.press('Enter')
    await expect.poll(() => sections.nth(0).getAttribute('data-testid')).toBe(added)
    const focused = () =>
      page.evaluate(() => [document.activeElement?.getAttribute('aria-label'), document.activeElement?.getAttribute('aria-disabled')])
    await expect.poll(focused).toEqual(['分节上移', 'true'])
  })
})
