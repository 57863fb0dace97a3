/**
 * The current project (issue 9; SPEC §4 'active' card): remembered per user, following the
 * session's user, surviving a corrupt store, and forgotten when cleared.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  currentProject,
  currentProjectKey,
  restoreCurrentProject,
  setCurrentProject,
  setCurrentProjectStorage,
  type StorageLike,
} from '../../../src/state/currentProject.ts'
import { session } from '../../../src/state/session.ts'

function memoryStorage(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>()
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  }
}

const lung = { id: 5, name: '肺癌队列', number: 'LC-01' }
const heart = { id: 8, name: 'Heart failure', number: 'HF-2' }
let storage: ReturnType<typeof memoryStorage>

beforeEach(() => {
  storage = memoryStorage()
  session.userId = 1
  setCurrentProjectStorage(storage)
})

afterEach(() => {
  session.userId = null
  setCurrentProjectStorage(null)
})

describe('current project', () => {
  it('starts with none, and a choice is stored for the signed-in user', () => {
    expect(currentProject.project).toBeNull()
    setCurrentProject(lung)
    expect(currentProject.project).toEqual(lung)
    expect(JSON.parse(storage.data.get(currentProjectKey(1)) ?? 'null')).toEqual(lung)
  })

  it('is remembered per user: another user signing in sees their own, and the first finds theirs again', () => {
    setCurrentProject(lung)
    session.userId = 2
    expect(currentProject.project).toBeNull()
    setCurrentProject(heart)
    session.userId = 1
    expect(currentProject.project).toEqual(lung)
    session.userId = 2
    expect(currentProject.project).toEqual(heart)
  })

  it('signing out leaves no project shown', () => {
    setCurrentProject(lung)
    session.userId = null
    expect(currentProject.project).toBeNull()
  })

  it('survives a reload (read again from storage)', () => {
    setCurrentProject(heart)
    currentProject.project = null
    restoreCurrentProject(1)
    expect(currentProject.project).toEqual(heart)
  })

  it('a corrupt or foreign entry reads as none', () => {
    for (const raw of ['{not json', '{"id":"5"}', '{"id":-1,"name":"x","number":"y"}', '[]']) {
      storage.data.set(currentProjectKey(1), raw)
      restoreCurrentProject(1)
      expect(currentProject.project, raw).toBeNull()
    }
  })

  it('cleared, it is gone from storage too', () => {
    setCurrentProject(lung)
    setCurrentProject(null)
    expect(currentProject.project).toBeNull()
    expect(storage.data.has(currentProjectKey(1))).toBe(false)
  })

  it('keeps only the reference, not a whole row handed over', () => {
    setCurrentProject({ ...lung, status: 'active' } as typeof lung)
    expect(currentProject.project).toEqual(lung)
  })

  it('a storage that refuses writes still switches for this session', () => {
    setCurrentProjectStorage({
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
      removeItem: () => undefined,
    })
    setCurrentProject(lung)
    expect(currentProject.project).toEqual(lung)
  })
})
