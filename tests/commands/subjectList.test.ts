/**
 * The research-object list's commands (issue 10 items 1, 12) through the registry's execute with
 * a test context: what each does to the world, what it needs, and what it refuses.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Endpoint } from '../../contract/endpoint.ts'
import { saveDisplayFieldInfo } from '../../contract/subjectList.ts'
import { subjectListCommands, subjectListView } from '../../commands/subjectList.ts'
import { execute, getCommand, isAvailable } from '../../commands/registry.ts'
import { expectOnly, offer, testContext } from './context.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

type Ctx = ReturnType<typeof testContext>
const run = (id: string, ctx: Ctx, args?: unknown) => execute(getCommand(id), ctx, 'test', args)
const project = { id: 7, name: '肺癌队列', number: 'LC-01' }

describe('subject list commands', () => {
  it('each needs subject.view; without it they are hidden and inert', async () => {
    for (const c of subjectListCommands) expect(c.permission, c.id).toBe('subject.view')
    const ctx = testContext({ grants: ['project.view'], currentProject: project })
    expect(subjectListCommands.filter((c) => isAvailable(c, ctx))).toEqual([])
    expect(await run('subjectList.find', ctx)).toEqual({ ok: false, reason: 'unavailable' })
    expectOnly(ctx)
  })

  it('find subject opens the palette on the current project’s subjects, or says to choose a project', async () => {
    const ctx = testContext({ currentProject: project })
    await run('subjectList.find', ctx)
    expect(ctx.ui.openPalette).toHaveBeenCalledWith('subjects')
    expectOnly(ctx, 'ui.openPalette')
    const none = testContext({ lang: 'en' })
    await run('subjectList.find', none)
    expect(none.ui.toast).toHaveBeenCalledWith('Choose a current project first', 'warning')
    expectOnly(none, 'ui.toast')
  })

  it('open list goes to the given project’s list, else the current one’s', async () => {
    const given = testContext()
    await run('subjectList.open', given, { studyId: 5 })
    expect(given.navigate).toHaveBeenCalledWith('/patient/index?studyId=5')
    expectOnly(given, 'navigate')
    const current = testContext()
    await run('subjectList.open', current)
    expect(current.navigate).toHaveBeenCalledWith('/patient/index')
    expectOnly(current, 'navigate')
  })

  it('open subject here or to the side; to the side without one asks the palette', async () => {
    const here = testContext()
    await run('subjectList.openSubject', here, { studyId: 7, id: 3 })
    expect(here.navigate).toHaveBeenCalledWith('/project/patientDetail?studyId=7&id=3')
    expectOnly(here, 'navigate')
    const side = testContext()
    await run('subjectList.openSubject', side, { studyId: 7, id: 4, toSide: true })
    expect(side.panes.openToSide).toHaveBeenCalledWith('/project/patientDetail?studyId=7&id=4')
    expectOnly(side, 'panes.openToSide')
    const given = testContext()
    await run('subjectList.openSubjectToSide', given, { studyId: 7, id: 5 })
    expect(given.panes.openToSide).toHaveBeenCalledWith('/project/patientDetail?studyId=7&id=5')
    expectOnly(given, 'panes.openToSide')
    const asked = testContext({ currentProject: project })
    await run('subjectList.openSubjectToSide', asked)
    expect(asked.ui.openPalette).toHaveBeenCalledWith('subjectsToSide')
    expectOnly(asked, 'ui.openPalette')
  })

  it('choose columns exists only on a list, and asks it; save columns saves and reloads the lists', async () => {
    expect(isAvailable(getCommand('subjectList.chooseColumns'), testContext())).toBe(false)
    const chooseColumns = vi.fn()
    const onList = testContext({ path: '/patient/index', provides: [offer(subjectListView, { chooseColumns })] })
    expect(await run('subjectList.chooseColumns', onList)).toEqual({ ok: true })
    expect(chooseColumns).toHaveBeenCalledOnce()

    const sent: unknown[] = []
    const answer = <T>(endpoint: Endpoint<unknown, unknown>, input: unknown): Promise<T> => {
      expect(endpoint).toBe(saveDisplayFieldInfo)
      sent.push(input)
      return Promise.resolve({ indicatorIds: [4, 2] } as T)
    }
    const ctx = testContext({ lang: 'en', answer })
    expect(await run('subjectList.saveColumns', ctx, { studyId: 7, indicatorIds: [4, 2] })).toEqual({ ok: true })
    expect(sent).toEqual([{ studyId: 7, indicatorIds: [4, 2] }])
    expect(ctx.invalidate).toHaveBeenCalledWith('subjects')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Columns saved', 'success')
  })
})
