import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { adminPassword, launch, newPage, signIn } from './browser.ts'

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

/**
 * zod 4 probes once whether it may compile parsers (`try { Function('') } catch`) and parses
 * without compiling when it may not: the probe is reported as 'script-src eval' and is the one
 * report expected until the client sets `z.config({ jitless: true })` before any parse.
 */
const zodEvalProbe = 'script-src eval'

describe('the built app under its Content-Security-Policy', () => {
  it('is served with the policy and runs its screens without one violation', async () => {
    const { context, page } = await newPage(browser, { lang: 'en' })
    await context.addInitScript(() => {
      const w = window as unknown as { cspViolations: string[] }
      w.cspViolations = []
      document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`))
    })
    const first = await page.goto('/login')
    expect(first?.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(first?.headers()['x-content-type-options']).toBe('nosniff')
    await signIn(page, 'admin', adminPassword())
    for (const path of ['/dataDictionary/dictionaryList', '/dataDictionary/diseaseList', '/dataDictionary/crf-template', '/dashboard']) {
      await page.goto(path)
      await page.getByTestId('shell').waitFor()
      await page.waitForLoadState('networkidle')
      const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)
      expect(
        violations.filter((v) => v !== zodEvalProbe),
        path,
      ).toEqual([])
    }
    await context.close()
  })

  it('the API documentation renders under it too', async () => {
    const { context, page } = await newPage(browser)
    const violations: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
    })
    await page.goto('/api/docs')
    await page.locator('.swagger-ui .info .title').waitFor()
    await expect(page.locator('.swagger-ui .info .title').textContent()).resolves.toContain('Clinical research workspace API')
    expect(violations).toEqual([])
    await context.close()
  })
})
