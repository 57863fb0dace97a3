/**
 * Issue 8, the org side in a real browser: the administrator creates a role with a few grants
 * from the role screen (permissions grid, screens checklist), and renaming a catalog title
 * changes the sidebar entry at once (then the built-in title comes back when the title is emptied).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { RoleDetail, RoleList } from '../../contract/roles.ts'
import { axeFindings, describeFindings } from './axe.ts'
import { TOKEN_COOKIE, adminPage, api, cookie, focusedTestId, launch, toastWith } from './browser.ts'

let browser: Browser
let page: Page
let token: string
const p = Date.now().toString(36)

beforeAll(async () => {
  browser = await launch()
  page = await adminPage(browser)
  const context = page.context()
  token = (await cookie(context, TOKEN_COOKIE)) ?? ''
})
afterAll(async () => {
  // Other tests read the sidebar: the catalog goes back to its built-in title whatever happened.
  await api('PUT', '/api/admin/catalog/career', { token, body: { titleEn: '' } })
  await browser?.close()
})

async function expectClean(what: string) {
  // A toast fading out is mid-animation, its colours half-way: judge the page once it is gone.
  await expect.poll(() => page.locator('.bp6-toast').count(), { timeout: 15_000 }).toBe(0)
  const findings = await axeFindings(page)
  expect(findings, `${what}:\n${describeFindings(findings).join('\n')}`).toEqual([])
}

/**
 * Ticks a controlled checkbox: on a busy machine React may render the new state after Playwright's
 * check() looks, which it reports as a click that changed nothing; so click, then wait for it.
 * A forced click aims at where the box is when it is sent: one sent while the dialog still moved
 * in missed it once (a clean-clone CI run), so a box still clear after a while is clicked again.
 */
async function tick(testId: string) {
  const box = page.getByTestId(testId)
  await vi.waitFor(
    async () => {
      if (!(await box.isChecked())) await box.click({ force: true })
      await expect.poll(() => box.isChecked(), { timeout: 2_000 }).toBe(true)
    },
    { timeout: 15_000, interval: 100 },
  )
}

describe('roles and the catalog', () => {
  it('the administrator creates a role with a few grants from the role screen', async () => {
    await page.getByTestId('menu-role').click()
    await page.getByTestId('role-page').waitFor()
    await page.getByTestId('cmd-admin.newRole').click()
    const editor = page.locator('.role-editor')
    await editor.waitFor()
    await page.getByTestId('role-nameZh').fill(`质控${p}`)
    await page.getByTestId('role-nameEn').fill(`Quality ${p}`)
    await tick('perm-dictionary.view')
    await tick('perm-template.view')
    await tick('screen-dictionaryList')
    // Labels are translated: the grid names its area and verb in English.
    expect(await page.getByLabel('Data dictionary · Export').isChecked()).toBe(false)
    await page.getByTestId('role-save').click()
    await toastWith(page, `Role 质控${p} created`).waitFor()
    await editor.waitFor({ state: 'detached' })
    await page.locator('[data-testid="role-row"]', { hasText: `Quality ${p}` }).waitFor()

    const list = await api<RoleList>('GET', '/api/admin/roles', { token })
    const made = list.body.data!.items.find((r) => r.nameZh === `质控${p}`)!
    const detail = await api<RoleDetail>('GET', `/api/admin/roles/${made.id}`, { token })
    expect(detail.body.data).toMatchObject({
      nameEn: `Quality ${p}`,
      screens: ['dictionaryList'],
      permissions: ['dictionary.view', 'template.view'],
    })
  })

  it('renaming a catalog title changes the sidebar entry; emptying it brings the built-in title back', async () => {
    await page.getByTestId('menu-catalog').click()
    await page.getByTestId('catalog-page').waitFor()
    const title = page.getByTestId('catalog-titleEn-career')
    await title.fill(`Job titles ${p}`)
    await title.press('Enter')
    await expect.poll(() => page.getByTestId('menu-career').innerText()).toBe(`Job titles ${p}`)

    // A bad icon is refused on the page, with a message, and nothing is sent.
    const icon = page.getByTestId('catalog-icon-career')
    await icon.fill('Bad Icon')
    await icon.press('Enter')
    await page.getByText('An icon name holds only lower-case letters, digits and hyphens').waitFor()

    const again = page.getByTestId('catalog-titleEn-career')
    await again.fill('')
    await again.press('Enter')
    await expect.poll(() => page.getByTestId('menu-career').innerText()).toBe('Career')
  })

  it('a menu moved to the top by keyboard keeps the focus on its Move up, which has nothing left to do', async () => {
    await page.getByTestId('menu-catalog').click()
    await page.getByTestId('catalog-page').waitFor()
    const ups = page.locator('[data-testid^="catalog-up-menu:"]')
    const second = (await ups.nth(1).getAttribute('data-testid'))!
    const first = (await ups.nth(0).getAttribute('data-testid'))!
    await page.getByTestId(second).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => ups.nth(0).getAttribute('data-testid')).toBe(second)
    await expect.poll(() => focusedTestId(page)).toBe(second)
    expect(await page.getByTestId(second).getAttribute('aria-disabled')).toBe('true')

    // Enter on it now does nothing; Tab goes on to its Move down, which puts the order back.
    await page.keyboard.press('Enter')
    await page.keyboard.press('Tab')
    expect(await focusedTestId(page)).toBe(second.replace('catalog-up-', 'catalog-down-'))
    await page.keyboard.press('Enter')
    await expect.poll(() => ups.nth(0).getAttribute('data-testid')).toBe(first)
  })

  it('departments: a child made, renamed with Enter, refused a cycle by drag, deleted with Delete after the confirmation', async () => {
    await page.getByTestId('menu-department').click()
    await page.getByTestId('department-page').waitFor()
    await page.getByTestId('cmd-admin.newDepartment').first().click()
    await page.getByTestId('department-name').fill(`Hospital ${p}`)
    await page.getByTestId('department-save').click()
    await page.getByTestId(`department-Hospital ${p}`).click()
    await page.getByRole('button', { name: 'New sub-department' }).click()
    await page.getByTestId('department-name').fill(`Ward ${p}`)
    await page.getByTestId('department-save').click()
    await page.getByTestId(`department-Ward ${p}`).click()
    await expectClean('department tree')

    await page.getByTestId('department-tree').focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('department-name').fill(`Ward B ${p}`)
    await page.getByTestId('department-save').click()
    await page.getByTestId(`department-Ward B ${p}`).waitFor()

    // The parent dropped onto its own child: a cycle, refused by the server with its message.
    await page.getByTestId(`department-Hospital ${p}`).dragTo(page.getByTestId(`department-Ward B ${p}`))
    await toastWith(page, 'A department cannot be moved under itself or one of its sub-departments').waitFor()

    await page.getByTestId(`department-Ward B ${p}`).click()
    await page.getByTestId('department-tree').focus()
    await page.keyboard.press('Delete')
    await page.getByText('Are you sure to delete the selected content?').waitFor()
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.getByTestId(`department-Ward B ${p}`).waitFor({ state: 'detached' })
  })

  it('careers: the list and its dialog pass the accessibility checks', async () => {
    await page.getByTestId('menu-career').click()
    await page.getByTestId('career-page').waitFor()
    await page.getByTestId('cmd-admin.newCareer').click()
    await page.getByTestId('career-name').fill(`Nurse ${p}`)
    await page.getByTestId('career-save').click()
    await page.locator('[data-testid="career-row"]', { hasText: `Nurse ${p}` }).waitFor()
    await expectClean('career list')
    await page.getByTestId('menu-role').click()
    await page.getByTestId('role-page').waitFor()
    await expectClean('role list')
    await page.getByTestId('menu-catalog').click()
    await page.getByTestId('catalog-page').waitFor()
    await expectClean('catalog')
  })
})
