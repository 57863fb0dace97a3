/**
 * The project the user works in now (issue 9; SPEC §4: the project list's 'active' card). It is
 * remembered per user in localStorage, so signing in as someone else never inherits another
 * person's project, and it follows the session's user by itself.
 */
import { z } from 'zod'
import { proxy, useSnapshot } from 'valtio'
import { subscribeKey } from 'valtio/utils'
import { session } from './session.ts'

export const currentProjectRef = z.object({
  id: z.number().int().positive(),
  name: z.string().max(1000),
  number: z.string().max(1000),
})
export type CurrentProjectRef = z.infer<typeof currentProjectRef>

export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

export const currentProjectKey = (userId: number) => `currentProject.v1.${userId}`

interface CurrentProjectState {
  /** Whose choice `project` is; null before anyone signed in. */
  userId: number | null
  project: CurrentProjectRef | null
}

export const currentProject = proxy<CurrentProjectState>({ userId: null, project: null })

let storage: StorageLike | null = defaultStorage()

function defaultStorage(): StorageLike | null {
  try {
    const s: unknown = (globalThis as { localStorage?: unknown }).localStorage
    return typeof s === 'object' && s !== null ? (s as StorageLike) : null
  } catch {
    return null
  }
}

/** Swap the storage (tests pass a fake); the state is read again for the session's user. */
export function setCurrentProjectStorage(next: StorageLike | null): void {
  storage = next
  restoreCurrentProject(session.userId)
}

/** Reads the stored choice of `userId` (none for no user, a corrupt or missing entry). */
export function restoreCurrentProject(userId: number | null): void {
  currentProject.userId = userId
  currentProject.project = userId === null ? null : read(userId)
}

function read(userId: number): CurrentProjectRef | null {
  try {
    const raw = storage?.getItem(currentProjectKey(userId))
    if (!raw) return null
    const parsed = currentProjectRef.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The user's new current project (null: none); stored at once for the signed-in user. */
export function setCurrentProject(project: CurrentProjectRef | null): void {
  const userId = session.userId
  if (currentProject.userId !== userId) restoreCurrentProject(userId)
  currentProject.project = project ? { id: project.id, name: project.name, number: project.number } : null
  if (userId === null || !storage) return
  try {
    if (project) storage.setItem(currentProjectKey(userId), JSON.stringify(currentProject.project))
    else storage.removeItem(currentProjectKey(userId))
  } catch {
    // A full or forbidden storage only loses the memory of the choice, not the choice.
  }
}

/** The current project for a component; it redraws when the choice or the user changes. */
export function useCurrentProject(): CurrentProjectRef | null {
  const snap = useSnapshot(currentProject)
  return snap.project
}

restoreCurrentProject(session.userId)
subscribeKey(session, 'userId', (userId) => restoreCurrentProject(userId), true)
