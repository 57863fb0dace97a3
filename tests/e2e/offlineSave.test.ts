/**
 * Issue 10 item 7 in Chromium, keyboard only: the server stops in the middle of data entry; the
 * user keeps typing and saves; the save waits, visibly queued; the server starts again and the
 * save arrives on its own. This file runs its own server (tests/e2e/serverProcess.ts) so that
 * stopping it leaves the other files' server alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launch, TOKEN_COOKIE } from './browser.ts'
import { startServer, type ServerProcess } from './serverProcess.ts'
import { axeFindings, describeFindings } from './axe.ts'

let server: ServerProcess
let browser: Browser
let context: BrowserContext
let page: Page
let token = ''
const p = `O${Date.now().toString(36).toUpperCase()}`
const ids = { project: 0, subject: 0, other: 0, crf: 0, first: 0, second: 0 }

/** A call to this file's server, failing the test on a refusal. */
async function api<T>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  query: Record<string, string | number> = {},
): Promise<T> {
  const url = new URL(path, server.baseUrl)
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v))
  const headers: Record<string, string> = { [TOKEN_COOKIE]: token }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const json = (await res.json()) as { code: number; msg: string; data?: T }
  if (json.code !== 0) throw new Error(`${method} ${path}: ${res.status} ${json.msg}`)
  return json.data as T
}

beforeAll(async () => {
  server = await startServer()
  const signedIn = await fetch(new URL('/api/auth/jwt/token', server.baseUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: server.adminPassword, platform: 'web' }),
  })
  token = ((await signedIn.json()) as { data: { token: string } }).data.token
  const indicator = async (n: number) =>
    (
      await api<{ id: number }>('POST', '/api/dictionary/indicators', {
        code: `${p}_${n}`,
        nameZh: `收缩压${n}`,
        nameEn: `Systolic pressure ${n}`,
        type: 'blank',
        display: 'input',
        dataType: 'integer',
      })
    ).id
  ids.first = await indicator(1)
  ids.second = await indicator(2)
  ids.crf = (await api<{ id: number }>('POST', '/api/templates', { name: `Vitals ${p}`, kind: 'crf' })).id
  await api('PUT', `/api/templates/${ids.crf}/layout`, {
    sections: [
      { key: 's1', title: '', repeating: false, items: [ids.first, ids.second].map((indicatorId) => ({ indicatorId, required: true })) },
    ],
  })
  await api('POST', '/api/scientific/form/saveCrfFormGenerateToDb', undefined, { id: ids.crf })
  const version = await api<{ id: number }>('GET', `/api/templates/${ids.crf}/versions/1`)
  const center = await api<{ id: number }>('POST', '/api/centers', { code: `${p}C`, nameZh: `中心${p}`, nameEn: `Center ${p}` })
  ids.project = (
    await api<{ id: number }>('POST', '/api/projects', {
      scope: 'multi',
      base: { type: 'prospective', name: `Outage ${p}`, number: `${p}-OU`, groupType: 'group', plannedQuantity: 10, plannedGroups: 2 },
      queues: [{ name: 'Cohort A', key: 'A' }],
      forms: [{ templateId: ids.crf, versionId: version.id }],
      centerIds: [center.id],
    })
  ).id
  await api('POST', `/api/projects/${ids.project}/submit`)
  await api('POST', `/api/projects/${ids.project}/pass`)
  const queues = (await api<{ queues: { id: number }[] }>('GET', `/api/projects/${ids.project}`)).queues
  const enrol = async () =>
    (
      await api<{ id: number }>('POST', `/api/projects/${ids.project}/subjects`, {
        queueId: queues[0]!.id,
        centerId: center.id,
        checklist: { inclusion: [], exclusion: [] },
      })
    ).id
  ids.subject = await enrol()
  ids.other = await enrol()

  browser = await launch()
  context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1400, height: 900 } })
  await context.addCookies([{ name: 'language', value: 'en', url: server.baseUrl }])
  context.setDefaultTimeout(10_000)
  page = await context.newPage()
  page.on('pageerror', (e) => console.error('[page error]', e.message))
  await page.goto('/login')
  await page.locator('#login-username').fill('admin')
  await page.locator('#login-password').fill(server.adminPassword)
  await page.keyboard.press('Enter')
  await page.getByTestId('shell').waitFor()
})
afterAll(async () => {
  await browser?.close()
  await server?.dispose()
})

const stored = (objectId = ids.subject) =>
  api<{ values: Record<string, string>; record: { rev: number } | null }>('GET', '/api/scientific/form/getOneFormInfo', undefined, {
    studyId: ids.project,
    objectId,
    templateId: ids.crf,
  })

const focusedField = () => page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-testid') ?? null)

describe('saving through an outage, keyboard only', () => {
  it('a save made while the server is down waits, visibly queued, and arrives when it is back', async () => {
    await page.goto(`/project/patientDetail?studyId=${ids.project}&id=${ids.subject}&templateId=${ids.crf}`)
    await page.getByTestId('entry-pane').waitFor()
    expect((await stored()).record).toBeNull()

    // The server goes away in the middle of entry; typing goes on, and the save is kept.
    await page.keyboard.press('Alt+E')
    await expect.poll(focusedField).toBe(`field-${p}_1`)
    await page.keyboard.type('12')
    await server.stop()
    await page.keyboard.type('0')
    await page.keyboard.press('Alt+E')
    await expect.poll(focusedField).toBe(`field-${p}_2`)
    await page.keyboard.type('80')
    await page.keyboard.press('Control+S')
    // The pipeline keeps retrying, so the tag may read "Saving..." between two queued spells.
    await page.locator('[data-testid="save-state"][data-state="queued"]', { hasText: /^Queued \(1\)$/ }).waitFor()
    const findings = describeFindings(await axeFindings(page))
    expect(findings, findings.join('\n')).toEqual([])

    // Back: the queued save goes on its own (the pipeline retries), and the tag says saved.
    await server.start()
    await page.locator('[data-testid="save-state"][data-state="saved"]').waitFor({ timeout: 30_000 })
    expect((await stored()).values).toEqual({ [String(ids.first)]: '120', [String(ids.second)]: '80' })
  })

  it('a queued save survives a reload of the page and is sent after it', async () => {
    // Saves cannot reach the server (the rest of the app can, so the page reloads).
    const saves = '**/api/scientific/form/saveOneFormInfo'
    // The first subject's tab stays open beside it: this subject's form only.
    const pane = page.locator(`[data-testid="entry-pane"][data-pane*="id=${ids.other}&"]`)
    await context.route(saves, (route) => route.abort('connectionrefused'))
    await page.goto(`/project/patientDetail?studyId=${ids.project}&id=${ids.other}&templateId=${ids.crf}`)
    await pane.waitFor()
    await page.keyboard.press('Alt+E')
    await expect.poll(focusedField).toBe(`field-${p}_1`)
    await page.keyboard.type('130')
    await page.keyboard.press('Alt+E')
    await page.keyboard.type('85')
    await page.keyboard.press('Control+S')
    await pane.locator('[data-testid="save-state"][data-state="queued"]').waitFor()

    await page.reload()
    await pane.waitFor()
    await pane.locator('[data-testid="save-state"][data-state="queued"]').waitFor()
    expect((await stored(ids.other)).record).toBeNull()

    await context.unroute(saves)
    await pane.locator('[data-testid="save-state"][data-state="saved"]').waitFor({ timeout: 30_000 })
    expect((await stored(ids.other)).values).toEqual({ [String(ids.first)]: '130', [String(ids.second)]: '85' })
  })
})
