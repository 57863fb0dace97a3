/** The department and career commands (issue 8 item 7) run through the registry with a test context. */
import { describe, expect, it } from 'vitest'
import * as endpoints from '../../contract/adminEndpoints.ts'
import { careerDialog, departmentDialog, organizationCommands } from '../../commands/organization.ts'
import { execute, getCommand, isAvailable } from '../../commands/registry.ts'
import { translate } from '../../src/i18n/index.ts'
import { expectOnly, testContext } from './context.ts'

const run = (id: string, ctx: ReturnType<typeof testContext>, args?: unknown) => execute(getCommand(id), ctx, 'test', args)
const dept = { id: 4, name: 'Cardiology', parentId: 1, sort: 0, userCount: 0 }

describe('organization commands', () => {
  it('each sits in the admin section, names an organization permission and has a zh and an en title', () => {
    for (const c of organizationCommands) {
      expect(c.section).toBe('admin')
      expect(c.permission).toMatch(/^organization\./)
      expect(translate('en', c.title)).not.toBe(translate('zh', c.title))
    }
  })

  it('are hidden and inert for a user who may only view', async () => {
    const ctx = testContext({ grants: ['organization.view'] })
    for (const id of ['admin.newDepartment', 'admin.newCareer']) expect(isAvailable(getCommand(id), ctx)).toBe(false)
    await run('admin.deleteDepartment', ctx, { id: 4 })
    expectOnly(ctx)
  })

  it('new department with a name creates it under its parent; without, opens the dialog on the department screen', async () => {
    const ctx = testContext({ lang: 'en', answer: () => dept })
    await run('admin.newDepartment', ctx, { name: 'Cardiology', parentId: 1 })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.createDepartment, { name: 'Cardiology', parentId: 1 })
    expect(ctx.invalidate).toHaveBeenCalledWith('departments')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Department Cardiology created', 'success')

    const open = testContext({ path: '/dashboard' })
    await run('admin.newDepartment', open)
    expect(open.navigate).toHaveBeenCalledWith('/management/department')
    expect(open.ui.open).toHaveBeenCalledWith(departmentDialog, { mode: 'create', parentId: null })
  })

  it('refuses an empty or too long name before any call', async () => {
    const ctx = testContext()
    expect(await run('admin.newDepartment', ctx, { name: 'x'.repeat(65) })).toMatchObject({ ok: false, reason: 'badArgs' })
    expect(ctx.api.call).not.toHaveBeenCalled()
  })

  it('rename and move call the API with what they are given, or open the dialog', async () => {
    const ctx = testContext({ answer: () => dept })
    await run('admin.renameDepartment', ctx, { id: 4, name: 'Heart' })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.renameDepartment, { id: 4, name: 'Heart' })
    await run('admin.moveDepartment', ctx, { id: 4, parentId: null, index: 0 })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.moveDepartment, { id: 4, parentId: null, index: 0 })
    const open = testContext({ path: '/management/department' })
    await run('admin.moveDepartment', open, { id: 4 })
    expectOnly(open, 'ui.open')
    expect(open.ui.open).toHaveBeenCalledWith(departmentDialog, { mode: 'move', id: 4 })
  })

  it('delete department asks first and shows the refusal with its count', async () => {
    const ctx = testContext({
      lang: 'en',
      answer: () => Promise.reject(new Error('The department still has 3 users; it cannot be deleted')),
    })
    const res = await run('admin.deleteDepartment', ctx, { id: 4 })
    expect(ctx.ui.confirm).toHaveBeenCalledWith('Are you sure to delete the selected content?', 'Deletion is irreversible')
    expect(res.ok).toBe(false)
    expect(ctx.ui.toast).toHaveBeenCalledWith('The department still has 3 users; it cannot be deleted', 'danger')
  })

  it('new career with a name creates it; without, opens its dialog', async () => {
    const ctx = testContext({ answer: () => ({ id: 2, name: 'Nurse', remarks: '', userCount: 0, createdAt: '2026-11-28T00:00:00.000Z' }) })
    await run('admin.newCareer', ctx, { name: 'Nurse' })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.createCareer, { name: 'Nurse', remarks: '' })
    expect(ctx.invalidate).toHaveBeenCalledWith('careers')
    const open = testContext({ path: '/management/career' })
    await run('admin.newCareer', open)
    expect(open.ui.open).toHaveBeenCalledWith(careerDialog, { id: null })
  })
})
