/** The role commands (issue 8 item 7) run through the registry with a test context. */
import { describe, expect, it } from 'vitest'
import * as endpoints from '../../contract/adminEndpoints.ts'
import type { RoleDetail } from '../../contract/roles.ts'
import { roleCommands, roleEditor } from '../../commands/roles.ts'
import { execute, getCommand, isAvailable, needsArgs } from '../../commands/registry.ts'
import { translate } from '../../src/i18n/index.ts'
import { expectOnly, testContext } from './context.ts'

const run = (id: string, ctx: ReturnType<typeof testContext>, args?: unknown) => execute(getCommand(id), ctx, 'test', args)

const detail = (over: Partial<RoleDetail> = {}): RoleDetail => ({
  id: 7,
  nameZh: '质控员',
  nameEn: 'Quality',
  remarks: '',
  builtin: null,
  superuser: false,
  screenCount: 1,
  permissionCount: 1,
  userCount: 0,
  screens: ['dictionaryList'],
  permissions: ['dictionary.view'],
  ...over,
})

describe('role commands', () => {
  it('each sits in the admin section, names its permission and has a zh and an en title', () => {
    for (const c of roleCommands) {
      expect(c.section).toBe('admin')
      expect(c.permission).toMatch(/^role\./)
      expect(translate('en', c.title)).not.toBe(translate('zh', c.title))
    }
    expect(needsArgs(getCommand('admin.newRole'))).toBe(false)
  })

  it('are hidden and inert without their permission', async () => {
    const ctx = testContext({ grants: ['role.view'] })
    expect(isAvailable(getCommand('admin.newRole'), ctx)).toBe(false)
    expect(await run('admin.newRole', ctx)).toMatchObject({ ok: false, reason: 'unavailable' })
    expectOnly(ctx)
  })

  it('new role without a role opens the editor on the role screen', async () => {
    const ctx = testContext({ path: '/dashboard' })
    await run('admin.newRole', ctx)
    expect(ctx.navigate).toHaveBeenCalledWith('/management/role')
    expect(ctx.ui.open).toHaveBeenCalledWith(roleEditor, { id: null })
  })

  it('new role with names and grants creates it, reloads roles and the permission list', async () => {
    const ctx = testContext({ answer: () => detail() })
    const res = await run('admin.newRole', ctx, { nameZh: '质控员', screens: ['dictionaryList'], permissions: ['dictionary.view'] })
    expect(res.ok).toBe(true)
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.createRole, expect.objectContaining({ nameZh: '质控员' }))
    expect(ctx.invalidate.mock.calls.map((c) => c[0]).sort()).toEqual(['permissions', 'roles'])
    expect(ctx.ui.toast).toHaveBeenCalledWith('角色质控员已创建', 'success')
  })

  it('edit role grants saves the grants as a set; without them it opens the editor', async () => {
    const ctx = testContext({ answer: () => detail() })
    await run('admin.editRoleGrants', ctx, { id: 7, input: { nameZh: '质控员', permissions: ['template.view'] } })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.updateRole, expect.objectContaining({ id: 7, permissions: ['template.view'] }))
    const open = testContext({ path: '/management/role' })
    await run('admin.editRoleGrants', open, { id: 7 })
    expectOnly(open, 'ui.open')
  })

  it('delete role asks first; no means nothing happens; a refusal of the server is not a success', async () => {
    const no = testContext({ ui: { confirm: () => Promise.resolve(false) } })
    await run('admin.deleteRole', no, { id: 7 })
    expect(no.api.call).not.toHaveBeenCalled()
    expect(no.ui.confirm).toHaveBeenCalledWith('确定删除所选内容吗？', '删除后不可恢复')

    const refused = testContext({
      answer: () => Promise.reject(new Error('还有 2 名用户持有该角色，不能删除')),
    })
    const res = await run('admin.deleteRole', refused, { id: 7 })
    expect(res.ok).toBe(false)
    expect(refused.invalidate).not.toHaveBeenCalled()
    expect(refused.ui.toast).toHaveBeenCalledWith('还有 2 名用户持有该角色，不能删除', 'danger')
  })
})
