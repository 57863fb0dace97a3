/** The catalog command (issue 8 item 3) run through the registry with a test context. */
import { describe, expect, it } from 'vitest'
import * as endpoints from '../../contract/adminEndpoints.ts'
import { execute, getCommand, isAvailable } from '../../commands/registry.ts'
import { testContext } from './context.ts'

const run = (ctx: ReturnType<typeof testContext>, args?: unknown) => execute(getCommand('admin.editCatalogEntry'), ctx, 'test', args)
const entry = { name: 'role', kind: 'screen', menu: 'management', sort: 3, icon: 'people', hidden: false, titleZh: '权限角色', titleEn: '' }

describe('edit catalog entry', () => {
  it('needs catalog.edit', () => {
    expect(isAvailable(getCommand('admin.editCatalogEntry'), testContext({ grants: ['catalog.view'] }))).toBe(false)
  })

  it('saves the change, then reloads the catalog and the permission list the sidebar draws from', async () => {
    const ctx = testContext({ answer: () => entry })
    expect((await run(ctx, { name: 'role', titleZh: '权限角色' })).ok).toBe(true)
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.updateCatalogEntry, { name: 'role', titleZh: '权限角色' })
    expect(ctx.invalidate.mock.calls.map((c) => c[0]).sort()).toEqual(['catalog', 'permissions'])
    expect(ctx.ui.toast).toHaveBeenCalledWith('保存成功', 'success')
  })

  it('refuses a bad icon or a title over 32 characters before any call', async () => {
    const ctx = testContext({ answer: () => entry })
    expect(await run(ctx, { name: 'role', icon: 'Bad Icon' })).toMatchObject({ ok: false, reason: 'badArgs' })
    expect(await run(ctx, { name: 'role', titleEn: 'x'.repeat(33) })).toMatchObject({ ok: false, reason: 'badArgs' })
    expect(ctx.api.call).not.toHaveBeenCalled()
  })
})
