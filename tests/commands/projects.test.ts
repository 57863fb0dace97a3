/**
 * The project list and detail commands (issue 9 item 9) run through the registry's execute with a
 * test context: what each one does to the world, which permission it needs, and what it refuses.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Endpoint } from '../../contract/endpoint.ts'
import * as endpoints from '../../contract/projectEndpoints.ts'
import type { Application, ProjectDetail } from '../../contract/projects.ts'
import { projectCommands, projectReasonDialog } from '../../commands/projects.ts'
import { execute, getCommand, isAvailable } from '../../commands/registry.ts'
import { expectOnly, testContext } from './context.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

type Ctx = ReturnType<typeof testContext>
const run = (id: string, ctx: Ctx, args?: unknown) => execute(getCommand(id), ctx, 'test', args)

const at = '2026-11-28T00:00:00.000Z'
const detail: ProjectDetail = {
  id: 5,
  scope: 'multi',
  type: 'prospective',
  name: '肺癌队列',
  number: 'LC-01',
  testStage: 'II',
  diseaseId: null,
  diseaseName: null,
  diseaseNameEn: null,
  status: 'draft',
  randomMethod: 'none',
  blinded: 'open',
  plannedQuantity: 100,
  subjectCount: 0,
  creatorName: 'admin',
  myRole: '项目管理员',
  createdAt: at,
  updatedAt: at,
  groupNumber: '',
  manageBiomaterial: false,
  groupType: 'single',
  plannedGroups: 1,
  therapyTime: '',
  followUpTime: '',
  statusReason: '',
  queues: [],
  centers: [],
  forms: [],
  me: null,
}
const application: Application = {
  id: 3,
  projectId: 5,
  projectName: '肺癌队列',
  userId: 9,
  name: '李四',
  roleId: null,
  roleName: null,
  reason: 'I enrol patients',
  status: 'pending',
  decidedBy: null,
  decisionReason: '',
  createdAt: at,
  decidedAt: null,
}

function server(endpoint: Endpoint<unknown, unknown>): unknown {
  switch (endpoint) {
    case endpoints.submitProject:
      return { ...detail, status: 'auditing' }
    case endpoints.passProject:
      return { ...detail, status: 'active' }
    case endpoints.unpassProject:
      return { ...detail, status: 'draft', statusReason: 'no consent form' }
    case endpoints.closeProject:
      return { ...detail, status: 'closed' }
    case endpoints.applyToProject:
      return application
    default:
      return undefined
  }
}
const answer = <T>(endpoint: Endpoint<unknown, unknown>): Promise<T> => Promise.resolve(server(endpoint) as T)

const detailPath = '/project/multi-detail?id=5'
const onDetail = (over: Parameters<typeof testContext>[0] = {}) =>
  testContext({ lang: 'en', path: detailPath, record: { kind: 'project', id: 5, name: '肺癌队列' }, answer, ...over })

describe('permissions', () => {
  it('each command names the project permission it needs, and without it is hidden and inert', async () => {
    for (const c of projectCommands) expect(c.permission, c.id).toMatch(/^project\./)
    const researcher = onDetail({ grants: ['project.view'] })
    const shown = projectCommands.filter((c) => isAvailable(c, researcher)).map((c) => c.id)
    expect(shown.sort()).toEqual(['projects.apply', 'projects.open', 'projects.openToSide', 'projects.switch'])
    expect(await run('projects.submit', researcher, { id: 5 })).toEqual({ ok: false, reason: 'unavailable' })
    expect(await run('projects.pass', researcher, { id: 5 })).toEqual({ ok: false, reason: 'unavailable' })
    expect(await run('projects.delete', researcher, { id: 5 })).toEqual({ ok: false, reason: 'unavailable' })
    expect(await run('projects.new', researcher)).toEqual({ ok: false, reason: 'unavailable' })
    expectOnly(researcher)
  })

  it('an auditor passes and unpasses but neither submits, closes nor deletes', () => {
    const auditor = onDetail({ grants: ['project.view', 'project.approve'] })
    const shown = new Set(projectCommands.filter((c) => isAvailable(c, auditor)).map((c) => c.id))
    expect(shown.has('projects.pass')).toBe(true)
    expect(shown.has('projects.unpass')).toBe(true)
    expect(shown.has('projects.submit')).toBe(false)
    expect(shown.has('projects.close')).toBe(false)
    expect(shown.has('projects.delete')).toBe(false)
  })

  it('the audit commands are hidden where no project is shown', () => {
    const elsewhere = testContext({ path: '/dataDictionary/dictionaryList' })
    for (const id of ['projects.submit', 'projects.pass', 'projects.unpass', 'projects.close', 'projects.delete', 'projects.edit'])
      expect(isAvailable(getCommand(id), elsewhere), id).toBe(false)
    for (const id of ['projects.new', 'projects.open', 'projects.switch', 'projects.apply', 'projects.openToSide'])
      expect(isAvailable(getCommand(id), elsewhere), id).toBe(true)
  })

  it('signed out, nothing runs', async () => {
    const ctx = onDetail({ signedIn: false })
    expect(await run('projects.open', ctx)).toEqual({ ok: false, reason: 'unavailable' })
    expectOnly(ctx)
  })
})

describe('opening', () => {
  it('new project opens the wizard, for a single-center project from the single-center list', async () => {
    const multi = testContext({ path: '/project/multi-list' })
    await run('projects.new', multi)
    expect(multi.navigate).toHaveBeenCalledWith('/project/multi-add')
    const explicit = testContext({ path: '/project/list' })
    await run('projects.new', explicit, { scope: 'multi' })
    expect(explicit.navigate).toHaveBeenCalledWith('/project/multi-add')
    const single = testContext({ path: '/project/list' })
    await run('projects.new', single)
    expect(single.navigate).toHaveBeenCalledWith('/project/multi-add?scope=single')
    expectOnly(single, 'navigate')
  })

  it('open project without a project opens the palette on projects; with one, its detail here or to the side', async () => {
    const ctx = testContext()
    await run('projects.open', ctx)
    expect(ctx.ui.openPalette).toHaveBeenCalledWith('projects')
    expectOnly(ctx, 'ui.openPalette')

    const here = testContext()
    await run('projects.open', here, { id: 5 })
    expect(here.navigate).toHaveBeenCalledWith(detailPath)
    const side = testContext()
    await run('projects.open', side, { id: 5, toSide: true })
    expect(side.panes.openToSide).toHaveBeenCalledWith(detailPath)
    expectOnly(side, 'panes.openToSide')
  })

  it('open to the side takes the given, the shown, else the current project; with none, the palette', async () => {
    const given = onDetail()
    await run('projects.openToSide', given, { id: 8 })
    expect(given.panes.openToSide).toHaveBeenCalledWith('/project/multi-detail?id=8')
    const shown = onDetail()
    await run('projects.openToSide', shown)
    expect(shown.panes.openToSide).toHaveBeenCalledWith(detailPath)
    const current = testContext({ currentProject: { id: 7, name: 'B', number: 'B-1' } })
    await run('projects.openToSide', current)
    expect(current.panes.openToSide).toHaveBeenCalledWith('/project/multi-detail?id=7')
    const none = testContext()
    await run('projects.openToSide', none)
    expectOnly(none, 'ui.openPalette')
  })

  it('edit opens the edit tabs of the shown project, on the tab asked for', async () => {
    const ctx = onDetail()
    await run('projects.edit', ctx, { tab: 'queue' })
    expect(ctx.navigate).toHaveBeenCalledWith('/project/multi-edit?id=5&tab=queue')
  })
})

describe('current project', () => {
  it('switch without a project opens the palette that switches; with one, it becomes current and says so', async () => {
    const ctx = testContext({ lang: 'en' })
    await run('projects.switch', ctx)
    expect(ctx.ui.openPalette).toHaveBeenCalledWith('currentProject')
    const chosen = testContext({ lang: 'en' })
    await run('projects.switch', chosen, { id: 5, name: '肺癌队列', number: 'LC-01' })
    expect(chosen.currentProject.set).toHaveBeenCalledWith({ id: 5, name: '肺癌队列', number: 'LC-01' })
    expect(chosen.currentProject.value?.id).toBe(5)
    expect(chosen.ui.toast).toHaveBeenCalledWith('Now working in 肺癌队列', 'success')
    expectOnly(chosen, 'currentProject.set', 'ui.toast')
  })
})

describe('audit flow', () => {
  it('submit and pass call the server for the shown project and reload the projects', async () => {
    for (const [id, endpoint] of [
      ['projects.submit', endpoints.submitProject],
      ['projects.pass', endpoints.passProject],
    ] as const) {
      const ctx = onDetail()
      expect(await run(id, ctx)).toEqual({ ok: true })
      expect(ctx.api.call).toHaveBeenCalledWith(endpoint, { id: 5 })
      expect(ctx.invalidate).toHaveBeenCalledWith('projects')
      expect(ctx.ui.toast).toHaveBeenCalledWith('Operation success', 'success')
      expectOnly(ctx, 'api.call', 'invalidate', 'ui.toast')
    }
  })

  it('a button on a list names its project; on a list without one the command asks to choose first', async () => {
    const list = testContext({ lang: 'en', path: '/project/multi-list', answer })
    await run('projects.submit', list, { id: 9 })
    expect(list.api.call).toHaveBeenCalledWith(endpoints.submitProject, { id: 9 })
    const nothing = testContext({ lang: 'en', path: '/project/multi-list', answer })
    expect((await run('projects.submit', nothing)).ok).toBe(false)
    expect(nothing.ui.toast).toHaveBeenCalledWith('Choose a project first', 'danger')
    expectOnly(nothing, 'ui.toast')
  })

  it('unpass without a reason opens the reason dialog of the project, going to its detail first when elsewhere', async () => {
    const here = onDetail()
    await run('projects.unpass', here)
    expect(here.ui.open).toHaveBeenCalledWith(projectReasonDialog, { id: 5, action: 'unpass' })
    expectOnly(here, 'ui.open')

    const list = testContext({ path: '/project/multi-list' })
    await run('projects.unpass', list, { id: 5 })
    expect(list.navigate).toHaveBeenCalledWith(detailPath)
    expectOnly(list, 'navigate', 'ui.open')
  })

  it('unpass with a reason sends it trimmed; a blank reason is refused in the reader language and nothing is sent', async () => {
    const ctx = onDetail()
    await run('projects.unpass', ctx, { reason: '  no consent form ' })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.unpassProject, { id: 5, reason: 'no consent form' })
    expect(ctx.invalidate).toHaveBeenCalledWith('projects')

    const blank = onDetail({ lang: 'zh' })
    expect((await run('projects.unpass', blank, { reason: '   ' })).ok).toBe(false)
    expect(blank.ui.toast).toHaveBeenCalledWith('请输入原因', 'danger')
    expectOnly(blank, 'ui.toast')
  })

  it('a reason over the limit is refused before anything is sent', async () => {
    const ctx = onDetail()
    expect(await run('projects.unpass', ctx, { reason: 'x'.repeat(501) })).toMatchObject({ ok: false, reason: 'badArgs' })
    expect(ctx.api.call).not.toHaveBeenCalled()
  })

  it('close asks for an optional reason, then closes with what was given', async () => {
    const ask = onDetail()
    await run('projects.close', ask)
    expect(ask.ui.open).toHaveBeenCalledWith(projectReasonDialog, { id: 5, action: 'close' })
    const ctx = onDetail()
    await run('projects.close', ctx, { reason: '' })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.closeProject, { id: 5, reason: '' })
    expectOnly(ctx, 'api.call', 'invalidate', 'ui.toast')
  })

  it('a refusal of the server ends in a toast and reloads nothing', async () => {
    const ctx = onDetail({
      answer: () => {
        throw new Error('项目状态不允许此操作')
      },
    })
    expect((await run('projects.pass', ctx)).ok).toBe(false)
    expect(ctx.ui.toast).toHaveBeenCalledWith('项目状态不允许此操作', 'danger')
    expect(ctx.invalidate).not.toHaveBeenCalled()
  })
})

describe('delete', () => {
  it('asks first; declined, nothing happens', async () => {
    const ctx = onDetail({ ui: { confirm: () => Promise.resolve(false) } })
    await run('projects.delete', ctx)
    expect(ctx.ui.confirm).toHaveBeenCalledWith('Are you sure to delete the selected content?', 'Deletion is irreversible')
    expectOnly(ctx)
  })

  it('deletes, closes the detail tab, forgets it as current project and reloads', async () => {
    const ctx = onDetail({
      currentProject: { id: 5, name: '肺癌队列', number: 'LC-01' },
      panes: {
        tabs: [
          { path: '/dashboard', title: 'd', affix: true },
          { path: detailPath, title: 'p', affix: false },
        ],
      },
    })
    expect(await run('projects.delete', ctx)).toEqual({ ok: true })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.deleteProject, { id: 5 })
    expect(ctx.currentProject.set).toHaveBeenCalledWith(null)
    expect(ctx.panes.close).toHaveBeenCalledWith(detailPath)
    expectOnly(ctx, 'api.call', 'ui.toast', 'currentProject.set', 'panes.close', 'invalidate')
  })
})

describe('apply to join', () => {
  it('without an application opens the apply screen, with the project chosen when given', async () => {
    const ctx = testContext()
    await run('projects.apply', ctx)
    expect(ctx.navigate).toHaveBeenCalledWith('/project/multi-apply')
    const chosen = testContext()
    await run('projects.apply', chosen, { id: 5 })
    expect(chosen.navigate).toHaveBeenCalledWith('/project/multi-apply?id=5')
  })

  it('sends the wished role and the trimmed reason; a blank reason is refused with its message', async () => {
    const ctx = testContext({ lang: 'en', path: '/project/multi-apply', answer })
    expect(await run('projects.apply', ctx, { id: 5, roleId: 2, reason: ' I enrol patients ' })).toEqual({ ok: true })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.applyToProject, { id: 5, roleId: 2, reason: 'I enrol patients' })
    expect(ctx.invalidate).toHaveBeenCalledWith('projects')

    const blank = testContext({ lang: 'en', path: '/project/multi-apply', answer })
    expect((await run('projects.apply', blank, { id: 5, reason: ' ' })).ok).toBe(false)
    expect(blank.ui.toast).toHaveBeenCalledWith('Please input the reason for applying', 'danger')
    expectOnly(blank, 'ui.toast')
  })
})
