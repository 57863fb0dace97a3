/** Enrolment's command (issue 10): opens the dialog on the right project, or enrols and opens the subject. */
import { describe, expect, it } from 'vitest'
import { enrolSubject, type EnrolledSubject } from '../../contract/subjects.ts'
import { screenPath } from '../../contract/screenPaths.ts'
import { enrolDialog } from '../../commands/subjects.ts'
import { execute, getCommand, isAvailable, needsArgs } from '../../commands/registry.ts'
import { translate } from '../../src/i18n/index.ts'
import { calledEffects, expectOnly, testContext } from './context.ts'

const run = (ctx: ReturnType<typeof testContext>, args?: unknown) => execute(getCommand('subjects.new'), ctx, 'test', args)
const subject = { queueId: 11, centerId: 21, checklist: { inclusion: [true], exclusion: [false] } }
const enrolled = (over: Partial<EnrolledSubject> = {}): EnrolledSubject => ({
  id: 301,
  subjectNo: 'BJ01-0001',
  queueId: 11,
  centerId: 21,
  status: 'enrolled',
  enrolledAt: '2026-11-26T10:00:00.000Z',
  group: null,
  ...over,
})

describe('new research object', () => {
  it('sits in the subject section with a zh and an en title, from the palette too', () => {
    const c = getCommand('subjects.new')
    expect(c.section).toBe('subject')
    expect(translate('zh', c.title)).toBe('新增研究对象')
    expect(translate('en', c.title)).toBe('New research object')
    expect(needsArgs(c)).toBe(false)
  })

  it('is hidden and inert without the grant', async () => {
    const ctx = testContext({ grants: ['project.view'], currentProject: { id: 5, name: 'S', number: 'P1' } })
    expect(isAvailable(getCommand('subjects.new'), ctx)).toBe(false)
    expect(await run(ctx)).toMatchObject({ ok: false, reason: 'unavailable' })
    expectOnly(ctx)
  })

  it('opens the dialog on the project the screen shows, else the current project', async () => {
    const onList = testContext({ path: screenPath('patientList', { studyId: 7 }), currentProject: { id: 5, name: 'S', number: 'P1' } })
    await run(onList)
    expect(onList.ui.open).toHaveBeenCalledWith(enrolDialog, { studyId: 7 })
    expectOnly(onList, 'ui.open')

    const onProject = testContext({ path: screenPath('multiDetail', { id: 8 }), record: { kind: 'project', id: 8, name: 'P' } })
    await run(onProject)
    expect(onProject.ui.open).toHaveBeenCalledWith(enrolDialog, { studyId: 8 })

    const elsewhere = testContext({ path: '/dashboard', currentProject: { id: 5, name: 'S', number: 'P1' } })
    await run(elsewhere)
    expect(elsewhere.ui.open).toHaveBeenCalledWith(enrolDialog, { studyId: 5 })
  })

  it('without any project says so in the user language and does nothing else', async () => {
    const ctx = testContext({ lang: 'en', path: '/dashboard' })
    expect(await run(ctx)).toMatchObject({ ok: false, reason: 'failed' })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Please choose the current project first', 'danger')
    expectOnly(ctx, 'ui.toast')
  })

  it('with the answers enrols, reloads the lists, says the number (and group) and opens the subject', async () => {
    const ctx = testContext({ answer: () => enrolled({ group: { code: 'A', name: '试验组' } }) })
    expect(await run(ctx, { studyId: 7, subject })).toEqual({ ok: true })
    expect(ctx.api.call).toHaveBeenCalledWith(enrolSubject, { id: 7, subject: expect.objectContaining(subject) })
    // The list, and the project's enrolled count (its card) and progress.
    expect(ctx.invalidate.mock.calls.map(([key]) => key)).toEqual(['subjects', 'projects', 'followUp'])
    expect(ctx.ui.toast).toHaveBeenCalledWith('BJ01-0001 已入组，分组：试验组', 'success')
    expect(ctx.navigate).toHaveBeenCalledWith(screenPath('patientDetail', { studyId: 7, id: 301 }))
    expect(calledEffects(ctx)).toEqual(['api.call', 'invalidate', 'navigate', 'ui.toast'])

    const blind = testContext({ lang: 'en', answer: () => enrolled() })
    await run(blind, { studyId: 7, subject })
    expect(blind.ui.toast).toHaveBeenCalledWith('BJ01-0001 enrolled', 'success')
  })

  it('a refusal of the server opens nothing and reloads nothing', async () => {
    const ctx = testContext({ answer: () => Promise.reject(new Error('不符合入选条件：年龄 18-75 岁')) })
    const res = await run(ctx, { studyId: 7, subject })
    expect(res.ok).toBe(false)
    expect(ctx.invalidate).not.toHaveBeenCalled()
    expect(ctx.navigate).not.toHaveBeenCalled()
    expect(ctx.ui.toast).toHaveBeenCalledWith('不符合入选条件：年龄 18-75 岁', 'danger')
  })

  it('bad answers are refused before any call', async () => {
    const ctx = testContext()
    const res = await run(ctx, { studyId: 7, subject: { ...subject, subjectNo: 'x'.repeat(51) } })
    expect(res).toMatchObject({ ok: false, reason: 'badArgs' })
    expect(ctx.api.call).not.toHaveBeenCalled()
  })
})
