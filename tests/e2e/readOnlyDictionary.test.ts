/**
 * A researcher (the built-in role: dictionary.view and template.view, no editing) reads the
 * dictionary and the CRFs without being offered what they may not do: an indicator's row opens it
 * to view, its form shows every control disabled under a read-only note and no save; the CRF
 * manager lists each CRF by name, the name opening its preview rather than the designer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { TOKEN_COOKIE, adminPage, api, apiSignIn, cookie, launch, newPage, signIn } from './browser.ts'
import { seedCrf, seedIndicators } from './seed.ts'

let browser: Browser
let reader: Page
const p = `ro${Date.now().toString(36)}`
const crfName = `Read-only CRF ${p}`
let crfId = 0

beforeAll(async () => {
  browser = await launch()
  const page = await adminPage(browser)
  const context = page.context()
  const token = (await cookie(context, TOKEN_COOKIE)) ?? ''
  const [indicatorId] = await seedIndicators(token, p, 1)
  crfId = await seedCrf(token, crfName, [indicatorId!])
  const roles = await api<{ items: { id: number; builtin: string | null }[] }>('GET', '/api/admin/roles', { token })
  const researcher = roles.body.data?.items.find((r) => r.builtin === 'researcher')
  if (!researcher) throw new Error('no researcher role')
  const username = `reader_${p}`
  const password = 'Reader2026ok'
  const created = await api<{ password: string }>('POST', '/api/admin/users', {
    token,
    body: { name: `Reader ${p}`, username, roleIds: [researcher.id] },
  })
  const oneTime = created.body.data?.password ?? ''
  const session = await apiSignIn(username, oneTime)
  const changed = await api('POST', '/api/admin/user/changePwd', {
    token: session.token,
    body: { id: session.userId, oldPwd: oneTime, password },
  })
  if (changed.body.code !== 0) throw new Error(`password change: ${changed.body.msg}`)
  await context.close()
  ;({ page: reader } = await newPage(browser, { lang: 'en' }))
  await signIn(reader, username, password)
})
afterAll(async () => {
  await browser?.close()
})

describe('a reader of the dictionary and the templates', () => {
  it('opens an indicator to view it: every control disabled, a read-only note, no save', async () => {
    await reader.goto('/dataDictionary/dictionaryList')
    // Other tests leave thousands of indicators: this one is found by its code.
    await reader.getByTestId('dict-search').fill(`${p}_1`)
    const open = reader.getByTestId(`open-${p}_1`)
    await open.waitFor()
    expect(await open.getAttribute('title')).toBe('View')
    await open.click()
    const form = reader.getByTestId('indicator-form')
    await form.getByTestId('indicator-read-only').getByText('Read only: editing the dictionary is not among your grants').waitFor()
    expect(await form.getByTestId('indicator-save').count()).toBe(0)
    const controls = form.locator('input, select, textarea')
    expect(await controls.count()).toBeGreaterThan(5)
    expect(await controls.evaluateAll((els) => els.filter((e) => !e.matches(':disabled')).map((e) => e.outerHTML))).toEqual([])
  })

  it('sees each CRF by name in the CRF manager; the name opens the preview', async () => {
    await reader.goto('/dataDictionary/crf-template')
    await reader.getByTestId('template-search').fill(crfName)
    const row = reader.locator(`[data-testid="template-row"][data-id="${crfId}"]`)
    await row.getByText(crfName).waitFor()
    await row.getByTestId('cmd-templates.previewOf').click()
    await reader.waitForURL(`**/dataDictionary/previewCRF?id=${crfId}*`)
  })
})
