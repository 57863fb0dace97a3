/** axe-core in the page (no @axe-core/playwright here): WCAG 2.1 A/AA, critical and serious only. */
import axe from 'axe-core'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'

export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const

export interface Finding {
  rule: string
  impact: string
  targets: string[]
  /** axe's own words about the first node, e.g. the colours and ratio of a contrast failure. */
  detail: string
}

/** Runs axe over the whole document; answers each critical or serious violation with its targets. */
export async function axeFindings(page: Page): Promise<Finding[]> {
  // A toast or overlay fading out is a frame of an animation, not the screen: its colours are
  // half-way to transparent (a closing toast read 1.89:1). Scan once it has gone.
  await page.waitForFunction(() => !document.querySelector('.bp6-toast-exit, .bp6-overlay-exit'), undefined, { timeout: 5000 })
  const present = await page.evaluate(() => 'axe' in window)
  // Evaluated through the DevTools protocol, which the app's Content-Security-Policy does not govern (an inline script tag would be refused).
  if (!present) await page.evaluate(axe.source)
  return page.evaluate(async (tags) => {
    const w = window as unknown as { axe: typeof import('axe-core') }
    const result = await w.axe.run(document, { runOnly: { type: 'tag', values: [...tags] }, resultTypes: ['violations'] })
    return result.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => ({
        rule: v.id,
        impact: v.impact ?? '',
        targets: v.nodes.map((n) => n.target.join(' ')),
        detail: [...(v.nodes[0]?.any ?? []), ...(v.nodes[0]?.all ?? [])].map((c) => c.message).join('; '),
      }))
  }, wcagTags)
}

/** One line per violation, for a failure message a person can act on. */
export const describeFindings = (findings: readonly Finding[]) =>
  findings.map((f) => {
    // Blueprint's table selectors run long: the tail names the element.
    const shown = f.targets.slice(0, 8).map((t) => (t.length > 90 ? `…${t.slice(-90)}` : t))
    const more = f.targets.length > 8 ? ` … +${f.targets.length - 8}` : ''
    return `${f.rule} (${f.impact}): ${shown.join(' | ')}${more} — ${f.detail}`
  })

/** Once no spinner is left, the page has no critical or serious violation (the findings name them otherwise). */
export async function expectAxeClean(page: Page, what: string): Promise<void> {
  await page.waitForFunction(() => document.querySelector('.bp6-spinner, .view-spinner') === null)
  await page.waitForTimeout(150)
  const lines = describeFindings(await axeFindings(page))
  expect(lines, `${what}:\n${lines.join('\n')}`).toEqual([])
}
