// The real command context (src/app/commandContext.ts): the focused pane's screen, parameters and
// record, the capabilities its view published, and canonical paths for every navigation.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { capability } from '../../../commands/context.ts'
import { commandContext, setNavigator } from '../../../src/app/commandContext.ts'
import { published } from '../../../src/state/focus.ts'
import { workspace } from '../../../src/state/workspace.ts'

const path = '/dataDictionary/previewCRF?id=5&version=2'
const probe = capability<{ answer(): number }>('test.probe')

afterEach(() => {
  for (const k of Object.keys(published)) delete published[k]
  workspace.focused = null
})

describe('ctx.focus', () => {
  it('names the focused screen, its parsed parameters and the record its view published', () => {
    workspace.focused = path
    published[path] = { record: { kind: 'crf', id: 5, name: 'Baseline' }, capabilities: { [probe.id]: () => ({ answer: () => 42 }) } }
    const ctx = commandContext()
    expect(ctx.focus).toMatchObject({ path, screen: 'previewCRF', params: { id: 5, version: 2 }, record: { name: 'Baseline' } })
    expect(ctx.focus?.use(probe)?.answer()).toBe(42)
    expect(ctx.focus?.use(capability<unknown>('test.other'))).toBeUndefined()
  })

  it('is null where no screen has the focus', () => {
    workspace.focused = '/nowhere'
    expect(commandContext().focus).toBeNull()
  })
})

describe('navigation through the context', () => {
  it('always goes to the canonical path of a record', () => {
    const navigate = vi.fn()
    setNavigator({ navigate, follow: vi.fn() })
    workspace.focused = '/dashboard'
    const ctx = commandContext()
    ctx.navigate('/dataDictionary/edit-crf-temp?name=Baseline&id=4')
    ctx.panes.show('/dataDictionary/previewCRF?version=2&id=5')
    expect(navigate.mock.calls.map((c) => c[0])).toEqual([
      '/dataDictionary/edit-crf-temp?id=4',
      '/dataDictionary/previewCRF?id=5&version=2',
    ])
  })
})
