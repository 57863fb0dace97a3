/** The sample commands (issue 10 item 9) run through the registry with a test context. */
import { describe, expect, it } from 'vitest'
import { sampleCommands, sampleDialog, sampleList, sampleStatusDialog } from '../../commands/samples.ts'
import { execute, getCommand, isAvailable, isEnabled } from '../../commands/registry.ts'
import * as endpoints from '../../contract/samples.ts'
import type { Sample } from '../../contract/samples.ts'
import { translate } from '../../src/i18n/index.ts'
import { calledEffects, expectOnly, offer, testContext } from './context.ts'

const run = (id: string, ctx: ReturnType<typeof testContext>, args?: unknown) => execute(getCommand(id), ctx, 'test', args)

const sample: Sample = {
  id: 7,
  sampleNo: 'BJ01-0001-S1',
  subjectId: 3,
  subjectNo: 'BJ01-0001',
  centerId: 1,
  centerCode: 'BJ01',
  queueId: 2,
  queueName: '队列甲',
  parentId: null,
  parentNo: null,
  rootId: 7,
  type: 'serum',
  collectedAt: '2026-11-20 08:30',
  quantity: 2,
  unit: 'mL',
  freezer: 'F1',
  rack: '',
  box: '',
  position: '',
  status: 'available',
  remarks: '',
  aliquots: 0,
  forms: [],
  createdAt: '2026-11-20T00:00:00.000Z',
  updatedAt: '2026-11-20T00:00:00.000Z',
}
const fields = {
  sampleNo: '',
  type: 'serum' as const,
  collectedAt: null,
  quantity: null,
  unit: null,
  freezer: '',
  rack: '',
  box: '',
  position: '',
  remarks: '',
}
const onList = (selected: Sample | null) => ({
  path: '/sample/index?studyId=5',
  provides: [offer(sampleList, { studyId: 5, selected: () => selected })],
})

describe('sample commands', () => {
  it('each sits in the research objects section with a zh and an en title', () => {
    for (const c of sampleCommands) {
      expect(c.section).toBe('subject')
      expect(translate('en', c.title)).not.toBe(translate('zh', c.title))
    }
  })

  it('without a project to work in, new sample and new aliquot say to choose one; the others are hidden', async () => {
    const none = testContext({ path: '/dashboard' })
    for (const id of ['samples.edit', 'samples.delete']) expect(isAvailable(getCommand(id), none)).toBe(false)
    for (const lang of ['zh', 'en'] as const)
      for (const id of ['samples.new', 'samples.newAliquot']) {
        const ctx = testContext({ path: '/dashboard', lang })
        expect(isAvailable(getCommand(id), ctx), id).toBe(true)
        await run(id, ctx)
        expectOnly(ctx, 'ui.toast')
        expect(ctx.ui.toast).toHaveBeenCalledWith(lang === 'zh' ? '请先选择当前项目' : 'Choose a current project first', 'warning')
      }
  })

  it('are hidden without the permission', () => {
    const viewer = testContext({ ...onList(sample), grants: ['subject.view'] })
    for (const id of ['samples.new', 'samples.newAliquot', 'samples.edit', 'samples.setStatus', 'samples.delete'])
      expect(isAvailable(getCommand(id), viewer)).toBe(false)
    expect(
      isAvailable(getCommand('samples.new'), testContext({ path: '/dashboard', currentProject: { id: 5, name: 'P', number: 'P-1' } })),
    ).toBe(true)
  })

  it('new sample with values creates it by the subject number; without, opens the dialog on the project’s sample list', async () => {
    const ctx = testContext({ lang: 'en', answer: () => sample, currentProject: { id: 5, name: 'P', number: 'P-1' }, path: '/dashboard' })
    await run('samples.new', ctx, { subjectNo: 'bj01-0001', sample: fields })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.createSample, { studyId: 5, sample: { ...fields, subjectNo: 'bj01-0001' } })
    expect(ctx.invalidate).toHaveBeenCalledWith('samples')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Sample BJ01-0001-S1 created', 'success')

    const open = testContext({ path: '/dashboard', currentProject: { id: 5, name: 'P', number: 'P-1' } })
    await run('samples.new', open)
    expect(open.navigate).toHaveBeenCalledWith('/sample/index?studyId=5')
    expect(open.ui.open).toHaveBeenCalledWith(sampleDialog, { mode: 'create', studyId: 5, subjectNo: undefined })

    // On the list already: the dialog opens there, no navigation.
    const here = testContext(onList(null))
    await run('samples.new', here)
    expectOnly(here, 'ui.open')
  })

  it('new sample from a subject’s detail is that subject’s: its project’s list, its number filled in', async () => {
    const detail = testContext({
      path: '/project/patientDetail?studyId=6&id=3',
      record: { kind: 'subject', id: 3, name: 'BJ01-0001' },
      currentProject: { id: 5, name: 'P', number: 'P-1' },
    })
    await run('samples.new', detail)
    expect(detail.navigate).toHaveBeenCalledWith('/sample/index?studyId=6')
    expect(detail.ui.open).toHaveBeenCalledWith(sampleDialog, { mode: 'create', studyId: 6, subjectNo: 'BJ01-0001' })
  })

  it('new aliquot, edit and status act on the selected row, or say to select one first', async () => {
    const ctx = testContext(onList(sample))
    await run('samples.newAliquot', ctx)
    expect(ctx.ui.open).toHaveBeenCalledWith(sampleDialog, { mode: 'aliquot', studyId: 5, parent: sample })
    await run('samples.edit', ctx)
    expect(ctx.ui.open).toHaveBeenCalledWith(sampleDialog, { mode: 'edit', studyId: 5, sample })
    await run('samples.setStatus', ctx)
    expect(ctx.ui.open).toHaveBeenCalledWith(sampleStatusDialog, { studyId: 5, sample })
    expect(ctx.api.call).not.toHaveBeenCalled()

    const empty = testContext({ ...onList(null), lang: 'en' })
    await run('samples.newAliquot', empty)
    await run('samples.delete', empty)
    expect(calledEffects(empty)).toEqual(['ui.toast'])
    expect(empty.ui.toast).toHaveBeenCalledWith('Select a sample in the sample list first', 'warning')
  })

  it('a destroyed sample is not aliquoted nor its status changed, a used one not aliquoted: not offered, refused when named', async () => {
    const destroyed: Sample = { ...sample, status: 'destroyed' }
    const used: Sample = { ...sample, status: 'used' }
    const enabled = (id: string, ctx: ReturnType<typeof testContext>, args?: unknown) => isEnabled(getCommand(id), ctx, args)
    // The palette and the hotkeys act on the selected row.
    expect(enabled('samples.newAliquot', testContext(onList(destroyed)))).toBe(false)
    expect(enabled('samples.setStatus', testContext(onList(destroyed)))).toBe(false)
    expect(enabled('samples.newAliquot', testContext(onList(used)))).toBe(false)
    expect(enabled('samples.setStatus', testContext(onList(used)))).toBe(true)
    for (const id of ['samples.edit', 'samples.delete']) expect(enabled(id, testContext(onList(destroyed))), id).toBe(true)
    // A row's button names its sample, whatever row is selected.
    const selectedDestroyed = testContext(onList(destroyed))
    expect(enabled('samples.newAliquot', selectedDestroyed, { studyId: 5, parentId: 8 })).toBe(true)
    expect(enabled('samples.setStatus', selectedDestroyed, { studyId: 5, sampleId: 8 })).toBe(true)

    // Named by id, the sample is read and refused in the words the row button shows on hover.
    for (const lang of ['zh', 'en'] as const) {
      const ctx = testContext({ ...onList(null), lang, answer: () => destroyed })
      expect(await run('samples.newAliquot', ctx, { parentId: 7 })).toMatchObject({ ok: false, reason: 'failed' })
      expect(await run('samples.setStatus', ctx, { sampleId: 7 })).toMatchObject({ ok: false, reason: 'failed' })
      expect(ctx.ui.open).not.toHaveBeenCalled()
      expect(ctx.ui.toast.mock.calls).toEqual(
        lang === 'zh'
          ? [
              ['样本已销毁，不能分装', 'danger'],
              ['样本已销毁，状态不能再修改', 'danger'],
            ]
          : [
              ['The sample is destroyed: it cannot be aliquoted', 'danger'],
              ['The sample is destroyed: its status can no longer change', 'danger'],
            ],
      )
    }
    const ctx = testContext({ ...onList(null), lang: 'en', answer: () => used })
    await run('samples.newAliquot', ctx, { parentId: 7 })
    expect(ctx.ui.toast).toHaveBeenCalledWith('The sample is used: it cannot be aliquoted', 'danger')
    await run('samples.setStatus', ctx, { sampleId: 7 })
    expect(ctx.ui.open).toHaveBeenCalledWith(sampleStatusDialog, { studyId: 5, sample: used })
  })

  it('a named sample is read from the server; values are sent as given', async () => {
    const ctx = testContext({ ...onList(null), lang: 'en', answer: () => ({ ...sample, status: 'used' }) })
    await run('samples.edit', ctx, { sampleId: 7 })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.getSample, { studyId: 5, sampleId: 7 })
    await run('samples.newAliquot', ctx, { parentId: 7, sample: { ...fields, quantity: 0.5, unit: 'mL' } })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.createSample, {
      studyId: 5,
      sample: { ...fields, quantity: 0.5, unit: 'mL', parentId: 7 },
    })
    await run('samples.setStatus', ctx, { sampleId: 7, change: { status: 'used', reason: '' } })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.setSampleStatus, {
      studyId: 5,
      sampleId: 7,
      change: { status: 'used', reason: '' },
    })
    expect(ctx.ui.toast).toHaveBeenLastCalledWith('Sample BJ01-0001-S1: status set to Used', 'success')
    await run('samples.edit', ctx, { sampleId: 7, sample: { ...fields, freezer: 'F2' } })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.updateSample, { studyId: 5, sampleId: 7, sample: { ...fields, freezer: 'F2' } })
  })

  it('refuses bad values before any call', async () => {
    const ctx = testContext(onList(sample))
    expect(await run('samples.new', ctx, { subjectNo: 'S1', sample: { ...fields, quantity: -1 } })).toMatchObject({
      ok: false,
      reason: 'badArgs',
    })
    expect(await run('samples.setStatus', ctx, { sampleId: 7, change: { status: 'lost' } })).toMatchObject({ ok: false, reason: 'badArgs' })
    expect(ctx.api.call).not.toHaveBeenCalled()
  })

  it('delete asks first, and does nothing when the answer is no', async () => {
    const no = testContext({ ...onList(sample), ui: { confirm: () => Promise.resolve(false) } })
    await run('samples.delete', no)
    expect(no.ui.confirm).toHaveBeenCalledTimes(1)
    expectOnly(no)
    const ctx = testContext({ ...onList(sample), lang: 'en', answer: () => undefined })
    await run('samples.delete', ctx)
    expect(ctx.ui.confirm).toHaveBeenCalledWith(
      'Delete sample BJ01-0001-S1?',
      'Deletion is irreversible. Its number stays taken in this project: a tube may still carry its label.',
    )
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.deleteSample, { studyId: 5, sampleId: 7 })
    expect(ctx.invalidate).toHaveBeenCalledWith('samples')
    expect(ctx.ui.toast).toHaveBeenCalledWith('Sample BJ01-0001-S1 deleted', 'success')
  })

  it('open sample CRF goes to the subject’s detail on that form, or to the side', async () => {
    const ctx = testContext()
    await run('samples.openCrf', ctx, { studyId: 5, subjectId: 3, templateId: 9, sampleId: 7, recordId: 11 })
    expect(ctx.navigate).toHaveBeenCalledWith(expect.stringMatching(/^\/project\/patientDetail\?/))
    const path = ctx.navigate.mock.calls[0]![0]
    expect(new URLSearchParams(path.split('?')[1])).toEqual(new URLSearchParams('studyId=5&id=3&templateId=9&recordId=11&sampleId=7'))
    await run('samples.openCrf', ctx, { studyId: 5, subjectId: 3, templateId: 9, sampleId: 7, toSide: true })
    expect(ctx.panes.openToSide).toHaveBeenCalledWith(expect.stringContaining('sampleId=7'))
  })
})
