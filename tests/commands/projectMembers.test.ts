/** The member tab's commands (issue 9 items 4, 5, 9) run through the registry with a test context. */
import { describe, expect, it } from 'vitest'
import * as endpoints from '../../contract/projectEndpoints.ts'
import type { Application, Member, ProjectRole } from '../../contract/projects.ts'
import { screenPath } from '../../contract/screenPaths.ts'
import { addMemberDialog, approveDialog, projectMemberCommands, refuseDialog, roleDialog } from '../../commands/projectMembers.ts'
import { execute, getCommand, isAvailable, needsArgs } from '../../commands/registry.ts'
import { translate } from '../../src/i18n/index.ts'
import { calledEffects, expectOnly, testContext } from './context.ts'

const run = (id: string, ctx: ReturnType<typeof testContext>, args?: unknown) => execute(getCommand(id), ctx, 'test', args)
const memberTab = screenPath('multiEdit', { id: 5, tab: 'member' })

const member: Member = {
  id: 9,
  userId: 3,
  name: 'Alice Wang',
  username: 'alice',
  image: '',
  roleId: 4,
  roleName: 'CRC',
  createdAt: '2026-11-26T10:00:00.000Z',
}
const role: ProjectRole = {
  id: 4,
  name: 'CRC',
  remarks: '',
  authorities: ['enrol'],
  blinded: false,
  allQueues: false,
  queueIds: [11],
  allCenters: true,
  centerIds: [],
  builtin: null,
  memberCount: 0,
}
const application = (over: Partial<Application> = {}): Application => ({
  id: 21,
  projectId: 5,
  projectName: 'Study',
  userId: 3,
  name: 'Alice Wang',
  roleId: null,
  roleName: null,
  reason: 'please',
  status: 'approved',
  decidedBy: 'Manager Pan',
  decisionReason: '',
  createdAt: '2026-11-26T10:00:00.000Z',
  decidedAt: '2026-11-26T11:00:00.000Z',
  ...over,
})

describe('project member commands', () => {
  it('sit in the project section, need the member grant, and have a zh and an en title', () => {
    for (const c of projectMemberCommands) {
      expect(c.section).toBe('project')
      expect(c.permission).toBe('project.manageMembers')
      expect(translate('en', c.title)).not.toBe(translate('zh', c.title))
    }
    // The palette offers these two on the focused project.
    expect(needsArgs(getCommand('projectMembers.addMember'))).toBe(false)
    expect(needsArgs(getCommand('projectMembers.editRole'))).toBe(false)
  })

  it('are hidden and inert without the grant', async () => {
    const ctx = testContext({ grants: ['project.view'], path: memberTab })
    expect(isAvailable(getCommand('projectMembers.addMember'), ctx)).toBe(false)
    expect(await run('projectMembers.addMember', ctx)).toMatchObject({ ok: false, reason: 'unavailable' })
    expectOnly(ctx)
  })

  it('add member from the palette opens the picker on the focused project, on its member tab', async () => {
    const onTab = testContext({ path: memberTab })
    await run('projectMembers.addMember', onTab)
    expectOnly(onTab, 'ui.open')
    expect(onTab.ui.open).toHaveBeenCalledWith(addMemberDialog, { projectId: 5 })
    const onDetail = testContext({ path: screenPath('multiDetail', { id: 5 }) })
    await run('projectMembers.addMember', onDetail)
    expect(onDetail.navigate).toHaveBeenCalledWith(memberTab)
    expect(onDetail.ui.open).toHaveBeenCalledWith(addMemberDialog, { projectId: 5 })
  })

  it('add member without a project says so in the user language and does nothing else', async () => {
    const ctx = testContext({ lang: 'en', path: '/dashboard' })
    expect(await run('projectMembers.addMember', ctx)).toMatchObject({ ok: false, reason: 'failed' })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Open a project first', 'danger')
    expectOnly(ctx, 'ui.toast')
  })

  it('add member with a user and a role adds them, reloads the project and says who joined as what', async () => {
    const ctx = testContext({ answer: () => member })
    expect(await run('projectMembers.addMember', ctx, { id: 5, userId: 3, roleId: 4 })).toEqual({ ok: true })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.addMember, { id: 5, userId: 3, roleId: 4 })
    expect(ctx.invalidate).toHaveBeenCalledWith('projects')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Alice Wang 已加入项目，角色：CRC', 'success')
    expect(calledEffects(ctx)).toEqual(['api.call', 'invalidate', 'ui.toast'])
  })

  it('a refusal of the server is no success and reloads nothing', async () => {
    const ctx = testContext({ answer: () => Promise.reject(new Error('项目至少需要一名项目管理员')) })
    const res = await run('projectMembers.removeMember', ctx, { id: 5, memberId: 9 })
    expect(res.ok).toBe(false)
    expect(ctx.invalidate).not.toHaveBeenCalled()
    expect(ctx.ui.toast).toHaveBeenCalledWith('项目至少需要一名项目管理员', 'danger')
  })

  it('remove member asks first; no means nothing happens', async () => {
    const ctx = testContext({ ui: { confirm: () => Promise.resolve(false) } })
    await run('projectMembers.removeMember', ctx, { id: 5, memberId: 9 })
    expect(ctx.ui.confirm).toHaveBeenCalledWith('确定将该成员移出项目吗？')
    expectOnly(ctx)
  })

  it('change member role saves the role', async () => {
    const ctx = testContext({ answer: () => member })
    await run('projectMembers.changeMemberRole', ctx, { id: 5, memberId: 9, roleId: 4 })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.changeMemberRole, { id: 5, memberId: 9, roleId: 4 })
    expect(ctx.invalidate).toHaveBeenCalledWith('projects')
  })

  it('edit project role creates (no role id) or updates with the input; without it opens the editor', async () => {
    const input = { name: 'CRC', authorities: ['enrol'], queueIds: [11], allCenters: true }
    const create = testContext({ answer: () => role })
    await run('projectMembers.editRole', create, { id: 5, role: input })
    expect(create.api.call).toHaveBeenCalledWith(endpoints.createProjectRole, {
      id: 5,
      role: expect.objectContaining({ name: 'CRC', queueIds: [11] }),
    })
    const update = testContext({ answer: () => role })
    await run('projectMembers.editRole', update, { id: 5, roleId: 4, role: input })
    expect(update.api.call).toHaveBeenCalledWith(endpoints.updateProjectRole, expect.objectContaining({ id: 5, roleId: 4 }))
    expect(update.invalidate).toHaveBeenCalledWith('projects')
    const open = testContext({ path: memberTab })
    await run('projectMembers.editRole', open, { roleId: 4 })
    expectOnly(open, 'ui.open')
    expect(open.ui.open).toHaveBeenCalledWith(roleDialog, { projectId: 5, roleId: 4 })
  })

  it('edit project role refuses an input the contract refuses, before any call', async () => {
    const ctx = testContext({ lang: 'en', path: memberTab })
    expect(await run('projectMembers.editRole', ctx, { role: { name: '', authorities: ['fly'] } })).toMatchObject({ reason: 'badArgs' })
    expectOnly(ctx, 'ui.toast')
  })

  it('delete project role asks first, then deletes', async () => {
    const ctx = testContext({ answer: () => undefined })
    await run('projectMembers.deleteRole', ctx, { id: 5, roleId: 4 })
    expect(ctx.ui.confirm).toHaveBeenCalled()
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.deleteProjectRole, { id: 5, roleId: 4 })
  })

  it('approve with a role approves; without one opens the dialog asking for it', async () => {
    const ctx = testContext({ lang: 'en', answer: () => application() })
    await run('projectMembers.approve', ctx, { id: 5, applicationId: 21, roleId: 4 })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.approveApplication, { id: 5, applicationId: 21, roleId: 4 })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Alice Wang may now join the project', 'success')
    const open = testContext({ path: memberTab })
    await run('projectMembers.approve', open, { id: 5, applicationId: 21 })
    expectOnly(open, 'ui.open')
    expect(open.ui.open).toHaveBeenCalledWith(approveDialog, { projectId: 5, applicationId: 21 })
  })

  it('refuse needs a reason: with one it refuses, without one it asks, a blank one is refused', async () => {
    const ctx = testContext({ answer: () => application({ status: 'refused', decisionReason: 'full' }) })
    await run('projectMembers.refuse', ctx, { id: 5, applicationId: 21, reason: 'full' })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.refuseApplication, { id: 5, applicationId: 21, reason: 'full' })
    expect(ctx.ui.toast).toHaveBeenCalledWith('已拒绝 Alice Wang 的申请', 'success')
    const open = testContext({ path: memberTab })
    await run('projectMembers.refuse', open, { id: 5, applicationId: 21 })
    expect(open.ui.open).toHaveBeenCalledWith(refuseDialog, { projectId: 5, applicationId: 21 })
    const blank = testContext({ path: memberTab })
    expect(await run('projectMembers.refuse', blank, { id: 5, applicationId: 21, reason: '   ' })).toMatchObject({ reason: 'badArgs' })
    expectOnly(blank, 'ui.toast')
  })
})
