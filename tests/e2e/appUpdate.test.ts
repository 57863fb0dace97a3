/**
 * A tab opened before the app was updated: its next screen's code belongs to the old build, which
 * the server no longer has. The screen says the app was updated and reloads on request, instead of
 * a load error quoting the browser's script failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { adminPage, launch } from './browser.ts'

let browser: Browser
let page: Page

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
})
afterAll(async () => {
  await browser?.close()
})

describe('a screen of a build the server no longer has', () => {
  it('says the app was updated, and Reload opens the screen of the build there is', async () => {
    // The old build's file for the disease list is gone, as after an update (the server answers 404).
    const gone = /\/assets\/DiseaseListPage-[^/]*\.js$/
    await page.route(gone, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{}' }))
    await page.getByTestId('menu-diseaseList').click()
    const updated = page.getByText('The app was updated')
    await updated.waitFor()
    expect(await page.getByText('Load error').count()).toBe(0)
    await page.unroute(gone)
    await page.getByRole('button', { name: 'Reload' }).click()
    await page.waitForURL('**/dataDictionary/diseaseList')
    await page.locator('.bp6-non-ideal-state', { hasText: 'The app was updated' }).waitFor({ state: 'detached' })
    await page.getByRole('heading', { name: 'Disease Index' }).first().waitFor()
  })
})
