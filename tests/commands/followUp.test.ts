/** The follow-up commands (issue 10 item 10) run through the registry with a test context. */
import { describe, expect, it } from 'vitest'
import { followUpCommands, scheduleDialog, visitDialog } from '../../commands/followUp.ts'
import { execute, getCommand, isAvailable } from '../../commands/registry.ts'
import { createVisit, deleteVisit, updateVisit, type VisitPlan } from '../../contract/followUp.ts'
import { translate } from '../../src/i18n/index.ts'
import { expectOnly, testContext } from './context.ts'

const run = (id: string, ctx: ReturnType<typeof testContext>, args?: unknown) => execute(getCommand(id), ctx, 'test', args)

const plan: VisitPlan = { visits: [], followUpForms: [{ templateId: 5, name: '随访表' }] }
const visit = { name: 'Week 4', dayOffset: 28, windowBefore: 3, windowAfter: 3, templateIds: [5] }
const onFollowUp = { path: '/project/follow-up?id=7' }

describe('follow-up commands', () => {
  it('have a zh and an en title and sit in the project or subject section', () => {
    for (const c of followUpCommands) {
      expect(['project', 'subject']).toContain(c.section)
      expect(translate('en', c.title)).not.toBe(translate('zh', c.title))
    }
  })

  it('open follow-up and progress for the given project, the focused one, else the current one; to the side on request', async () => {
    const given = testContext()
    await run('followUp.open', given, { id: 3 })
    expect(given.navigate).toHaveBeenCalledWith('/project/follow-up?id=3')
    await run('followUp.openProgress', given, { id: 3, toSide: true })
    expect(given.panes.openToSide).toHaveBeenCalledWith('/project/progress?id=3')

    const focused = testContext({ path: '/project/multi-detail?id=9', record: { kind: 'project', id: 9, name: 'P' } })
    await run('followUp.openProgress', focused)
    expect(focused.navigate).toHaveBeenCalledWith('/project/progress?id=9')

    const fromFollowUp = testContext(onFollowUp)
    await run('followUp.openProgress', fromFollowUp)
    expect(fromFollowUp.navigate).toHaveBeenCalledWith('/project/progress?id=7')

    const current = testContext({ currentProject: { id: 4, name: 'C', number: 'C-1' } })
    await run('followUp.open', current)
    expect(current.navigate).toHaveBeenCalledWith('/project/follow-up?id=4')
  })

  it('without any project they say so in the user language and go nowhere', async () => {
    const en = testContext({ lang: 'en' })
    const res = await run('followUp.open', en)
    expect(res.ok).toBe(false)
    expect(en.ui.toast).toHaveBeenCalledWith('Choose a project first', 'danger')
    expect(en.navigate).not.toHaveBeenCalled()
  })

  it('are hidden where the screen may not be opened', async () => {
    const ctx = testContext({ screens: ['dashboard'] })
    expect(isAvailable(getCommand('followUp.open'), ctx)).toBe(false)
    expect(isAvailable(getCommand('followUp.openProgress'), ctx)).toBe(false)
    expect(await run('followUp.open', ctx, { id: 1 })).toMatchObject({ ok: false, reason: 'unavailable' })
    expectOnly(ctx)
  })

  it('new visit opens the dialog without values and sends them with; it needs project.edit and the follow-up screen', async () => {
    const ctx = testContext({ ...onFollowUp, answer: () => plan })
    await run('followUp.newVisit', ctx)
    expect(ctx.ui.open).toHaveBeenCalledWith(visitDialog, { projectId: 7 })
    expect(ctx.api.call).not.toHaveBeenCalled()

    await run('followUp.newVisit', ctx, { id: 7, visit })
    expect(ctx.api.call).toHaveBeenCalledWith(createVisit, { id: 7, visit })
    expect(ctx.invalidate).toHaveBeenCalledWith('followUp')
    expect(ctx.ui.toast).toHaveBeenCalledWith('访视 Week 4 已保存', 'success')

    const reader = testContext({ ...onFollowUp, grants: ['project.view'] })
    expect(isAvailable(getCommand('followUp.newVisit'), reader)).toBe(false)
    const elsewhere = testContext({ path: '/dashboard' })
    expect(isAvailable(getCommand('followUp.newVisit'), elsewhere)).toBe(false)
  })

  it('a bad visit is refused before anything is sent', async () => {
    const ctx = testContext({ ...onFollowUp, lang: 'en' })
    const res = await run('followUp.newVisit', ctx, { id: 7, visit: { ...visit, dayOffset: -1 } })
    expect(res.ok).toBe(false)
    expect(ctx.api.call).not.toHaveBeenCalled()
    expect(ctx.ui.open).not.toHaveBeenCalled()
  })

  it('edit opens the dialog on the visit, or saves it', async () => {
    const ctx = testContext({ ...onFollowUp, lang: 'en', answer: () => plan })
    await run('followUp.editVisit', ctx, { visitId: 11 })
    expect(ctx.ui.open).toHaveBeenCalledWith(visitDialog, { projectId: 7, visitId: 11 })
    await run('followUp.editVisit', ctx, { visitId: 11, visit })
    expect(ctx.api.call).toHaveBeenCalledWith(updateVisit, { id: 7, visitId: 11, visit })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Visit Week 4 saved', 'success')
  })

  it('delete asks first; no sends nothing, yes deletes and reloads', async () => {
    const no = testContext({ ...onFollowUp, ui: { confirm: async () => false } })
    await run('followUp.deleteVisit', no, { visitId: 11, name: 'Week 4' })
    expect(no.ui.confirm).toHaveBeenCalledWith('确定删除访视 Week 4 吗？')
    expect(no.api.call).not.toHaveBeenCalled()

    const yes = testContext({ ...onFollowUp, ui: { confirm: async () => true }, answer: () => plan })
    await run('followUp.deleteVisit', yes, { visitId: 11, name: 'Week 4' })
    expect(yes.api.call).toHaveBeenCalledWith(deleteVisit, { id: 7, visitId: 11 })
    expect(yes.invalidate).toHaveBeenCalledWith('followUp')
    expect(yes.ui.toast).toHaveBeenCalledWith('访视 Week 4 已删除', 'success')
  })

  it('open subject shows the subject detail, or puts it beside the list', async () => {
    const ctx = testContext()
    await run('followUp.openSubject', ctx, { studyId: 7, id: 21 })
    expect(ctx.navigate).toHaveBeenCalledWith('/project/patientDetail?studyId=7&id=21')
    await run('followUp.openSubject', ctx, { studyId: 7, id: 22, toSide: true })
    expect(ctx.panes.openToSide).toHaveBeenCalledWith('/project/patientDetail?studyId=7&id=22')
  })

  it('show schedule opens the planned visits of the row’s subject', async () => {
    const ctx = testContext()
    await run('followUp.showSchedule', ctx, { studyId: 7, id: 21, subjectNo: 'BJ01-0001' })
    expect(ctx.ui.open).toHaveBeenCalledWith(scheduleDialog, { projectId: 7, subjectId: 21, subjectNo: 'BJ01-0001' })
    expect(
      await run('followUp.showSchedule', testContext({ grants: ['project.view'] }), { studyId: 7, id: 21, subjectNo: 'x' }),
    ).toMatchObject({
      ok: false,
      reason: 'unavailable',
    })
  })
})
