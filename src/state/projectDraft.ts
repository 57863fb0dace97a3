/**
 * The project info draft of SPEC §3 (activeIndex, baseForm, queueForm), plus the forms and
 * centers the later wizard steps pick: what the create wizard holds until it is saved. Kept in
 * localStorage per user, so a reload (or another day) continues where the user left; cleared on
 * request and after the project is created.
 */
import { proxy, snapshot, subscribe } from 'valtio/vanilla'
import { z } from 'zod'
import { blindedSets, groupTypes, projectLimits, projectScopes, projectTypes, randomMethods, testStages } from '../../contract/projects.ts'
import type { StorageLike } from './workspace.ts'

/** The base fields as the form holds them: numbers as typed, choices empty until chosen. */
const baseForm = z.object({
  type: z.enum(projectTypes).or(z.literal('')),
  name: z.string().max(1000),
  number: z.string().max(1000),
  testStage: z.enum(testStages).or(z.literal('')),
  groupNumber: z.string().max(1000),
  manageBiomaterial: z.boolean(),
  groupType: z.enum(groupTypes).or(z.literal('')),
  diseaseId: z.number().int().nullable(),
  blinded: z.enum(blindedSets),
  randomMethod: z.enum(randomMethods),
  plannedQuantity: z.string().max(100),
  plannedGroups: z.string().max(100),
  therapyTime: z.string().max(1000),
  followUpTime: z.string().max(1000),
})
export type BaseForm = z.infer<typeof baseForm>

/** One queue ("domain" in the SPEC's queueForm). */
const queueDomain = z.object({
  name: z.string().max(1000),
  key: z.string().max(1000),
  entryCondition: z.string().max(10_000),
  excludeCondition: z.string().max(10_000),
})
export type QueueDomain = z.infer<typeof queueDomain>

/** A picked CRF or question group, with what the list shows of it. */
const draftForm = z.object({
  templateId: z.number().int(),
  kind: z.string(),
  name: z.string(),
  versionId: z.number().int(),
  version: z.number().int(),
})
export type DraftForm = z.infer<typeof draftForm>

const draftCenter = z.object({ id: z.number().int(), code: z.string(), nameZh: z.string(), nameEn: z.string() })
export type DraftCenter = z.infer<typeof draftCenter>

export const wizardSteps = ['base', 'queue', 'index', 'center'] as const
export type WizardStep = (typeof wizardSteps)[number]

const storedDraft = z.object({
  version: z.literal(1),
  scope: z.enum(projectScopes),
  activeIndex: z
    .number()
    .int()
    .min(0)
    .max(wizardSteps.length - 1),
  baseForm,
  queueForm: z.object({ domains: z.array(queueDomain).min(1).max(projectLimits.queues) }),
  forms: z.array(draftForm).max(projectLimits.forms),
  centers: z.array(draftCenter).max(projectLimits.centers),
})
export type ProjectDraft = Omit<z.infer<typeof storedDraft>, 'version'>

export const emptyQueue = (): QueueDomain => ({ name: '', key: '', entryCondition: '', excludeCondition: '' })

export function emptyBase(): BaseForm {
  return {
    type: '',
    name: '',
    number: '',
    testStage: '',
    groupNumber: '',
    manageBiomaterial: false,
    groupType: '',
    diseaseId: null,
    blinded: 'open',
    randomMethod: 'none',
    plannedQuantity: '',
    plannedGroups: '',
    therapyTime: '',
    followUpTime: '',
  }
}

/** SPEC: the queue form starts with one empty domain. */
export function emptyDraft(scope: ProjectDraft['scope'] = 'multi'): ProjectDraft {
  return { scope, activeIndex: 0, baseForm: emptyBase(), queueForm: { domains: [emptyQueue()] }, forms: [], centers: [] }
}

/** One draft per user and scope (a multi-center and a single-center project may be under way at once). */
export function draftKey(userId: string | number, scope: ProjectDraft['scope']): string {
  return `projectDraft.v1.${String(userId)}.${scope}`
}

function defaultStorage(): StorageLike | null {
  try {
    const storage: unknown = (globalThis as { localStorage?: unknown }).localStorage
    return typeof storage === 'object' && storage !== null ? (storage as StorageLike) : null
  } catch {
    return null
  }
}

export interface DraftStore {
  state: ProjectDraft
  /** Loads the user's stored draft of `scope` (true), else starts an empty one; a corrupt one counts as none. */
  restore(userId: string | number, scope: ProjectDraft['scope']): boolean
  /** Writes the draft now; false where storage refuses (private mode, full quota). */
  persist(userId: string | number): boolean
  /** Back to an empty draft (of the same scope), removed from storage. */
  clear(userId: string | number): void
  /** Writes every change shortly after it happens; the returned function stops (writing the draft as it is). */
  autoPersist(userId: string | number, wait?: number): () => void
  /** Whether anything was entered yet. */
  isEmpty(): boolean
}

/** A draft store on `storage` (localStorage by default; a fake in tests). */
export function createDraftStore(storage: (StorageLike & Partial<Pick<Storage, 'removeItem'>>) | null = defaultStorage()): DraftStore {
  const state = proxy<ProjectDraft>(emptyDraft())

  const replace = (next: ProjectDraft) => {
    state.scope = next.scope
    state.activeIndex = next.activeIndex
    state.baseForm = next.baseForm
    state.queueForm = next.queueForm
    state.forms = next.forms
    state.centers = next.centers
  }

  const persist = (userId: string | number): boolean => {
    if (!storage) return false
    try {
      storage.setItem(draftKey(userId, state.scope), JSON.stringify({ version: 1, ...snapshot(state) }))
      return true
    } catch {
      return false
    }
  }

  const restore = (userId: string | number, scope: ProjectDraft['scope']): boolean => {
    let stored: ProjectDraft | null = null
    try {
      const raw = storage?.getItem(draftKey(userId, scope)) ?? null
      const parsed = raw === null ? null : storedDraft.safeParse(JSON.parse(raw))
      // A draft stored under another scope's key is not this one.
      if (parsed?.success && parsed.data.scope === scope) {
        const d = parsed.data
        stored = {
          scope: d.scope,
          activeIndex: d.activeIndex,
          baseForm: d.baseForm,
          queueForm: d.queueForm,
          forms: d.forms,
          centers: d.centers,
        }
      }
    } catch {
      stored = null
    }
    replace(stored ?? emptyDraft(scope))
    return stored !== null
  }

  const isEmpty = () => JSON.stringify(snapshot(state)) === JSON.stringify(emptyDraft(state.scope))

  const forget = (userId: string | number): void => {
    try {
      if (storage?.removeItem) storage.removeItem(draftKey(userId, state.scope))
      else persist(userId)
    } catch {
      // Storage refused: the empty draft in memory is what counts for this page.
    }
  }

  const clear = (userId: string | number): void => {
    replace(emptyDraft(state.scope))
    forget(userId)
  }

  const autoPersist = (userId: string | number, wait = 200): (() => void) => {
    let timer: ReturnType<typeof setTimeout> | null = null
    const flush = () => {
      if (timer !== null) clearTimeout(timer)
      timer = null
      // An empty draft is no draft: nothing is kept for it.
      if (isEmpty()) forget(userId)
      else persist(userId)
    }
    const unsubscribe = subscribe(state, () => {
      if (timer === null) timer = setTimeout(flush, wait)
    })
    // Stopping writes what is there now: a change made just before may not have been announced yet.
    return () => {
      unsubscribe()
      flush()
    }
  }

  return { state, restore, persist, clear, autoPersist, isEmpty }
}

/** The app's one draft (the wizard is a not-cached screen: one at a time). */
export const projectDraft = createDraftStore()
