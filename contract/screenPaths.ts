/**
 * The one place screen paths are built and read. A path is canonical: the same screen and
 * parameters always give the same string (parameters in the order declared here, defaults and
 * unknown ones left out), because a tab, its cached view and its unsaved draft are keyed by the
 * path. Two strings for one record would be two tabs with two drafts, and the last save wins.
 */
import { z } from 'zod'
import { auditOutcomes } from './audit.ts'
import { projectEditTabs, projectScopes } from './projects.ts'
import { screens, type Screen } from './screens.ts'

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER)

/** The parameters of each screen that takes any, in their canonical order. */
export const screenParams = {
  fields: z.object({ id }),
  createFields: z.object({ diseaseId: id.optional() }),
  dictionaryList: z.object({ diseaseId: id.optional() }),
  editCrfTemp: z.object({ id }),
  editSubjectTemp: z.object({ id }),
  assignCRFFields: z.object({ id }),
  assignSubjectFields: z.object({ id }),
  previewCRF: z.object({ id, version: id.optional() }),
  /** The audit log opened filtered, e.g. a record's history (`?objectType=indicator&objectId=5`). */
  auditLog: z.object({
    username: z.string().max(65).optional(),
    action: z.string().max(65).optional(),
    objectType: z.string().max(32).optional(),
    objectId: id.optional(),
    ip: z.string().max(65).optional(),
    from: z.string().max(40).optional(),
    to: z.string().max(40).optional(),
    outcome: z.enum(auditOutcomes).optional(),
  }),
  multiDetail: z.object({ id }),
  /** The edit tabs (SPEC: base, queue, index, center, member, config info); base by default. */
  multiEdit: z.object({ id, tab: z.enum(projectEditTabs).optional() }),
  /** The wizard creates a multi-center project unless told `scope=single`. */
  multiAdd: z.object({ scope: z.enum(projectScopes).optional() }),
  /** Applications to join; with `id`, that project is chosen. */
  multiApply: z.object({ id: id.optional() }),
  /**
   * A research object (`id`) of project `studyId`; with `templateId` (and `recordId`), that form is
   * open; with `sampleId`, that sample's instance of a sample CRF (slot `s<sampleId>`), saved or not.
   */
  patientDetail: z.object({
    studyId: id,
    id,
    templateId: id.optional(),
    recordId: id.optional(),
    visitId: id.optional(),
    sampleId: id.optional(),
  }),
  /** Research objects of project `studyId`, or of the current project. */
  patientList: z.object({ studyId: id.optional() }),
  /** Samples of project `studyId` (or the current project); with `id`, that sample is open. */
  sampleList: z.object({ studyId: id.optional(), id: id.optional() }),
  /** Follow-up management (visit schedule, due and overdue visits) of project `id`, or of the current project. */
  followUp: z.object({ id: id.optional() }),
  /** Project progress (enrolment against plan, CRF completion) of project `id`, or of the current project. */
  progress: z.object({ id: id.optional() }),
  /** Data loading of project `id` (or the current project): templates, upload, download and the records of both (`tab`). */
  dataLoading: z.object({ id: id.optional(), tab: z.enum(['template', 'upload', 'download', 'uploads', 'downloads']).optional() }),
  /** The user list; with `id`, that person's dialog is open (a palette record). */
  user: z.object({ id: id.optional() }),
} as const

export type ParamScreen = keyof typeof screenParams
export type ScreenParams<N extends ParamScreen> = z.output<(typeof screenParams)[N]>

const byName = new Map(screens.map((s) => [s.name, s]))
const byPath = new Map(screens.map((s) => [s.path, s]))

const hasParams = (name: string): name is ParamScreen => Object.hasOwn(screenParams, name)

/** The canonical path of a screen; `params` are checked against the screen's schema. */
export function screenPath<N extends ParamScreen>(name: N, params: z.input<(typeof screenParams)[N]>): string
export function screenPath<N extends string>(name: N extends ParamScreen ? never : N): string
export function screenPath(name: string, params?: Record<string, unknown>): string {
  return build(name, params)
}

function build(name: string, params?: Record<string, unknown>): string {
  const screen = byName.get(name)
  if (!screen) throw new Error(`no screen ${name}`)
  if (!hasParams(name)) return screen.path
  const schema: z.ZodObject = screenParams[name]
  const parsed = schema.parse(params ?? {}) as Record<string, unknown>
  const query = new URLSearchParams()
  for (const key of Object.keys(schema.shape)) {
    const v = parsed[key]
    if (v !== undefined) query.append(key, String(v))
  }
  const qs = query.toString()
  return qs ? `${screen.path}?${qs}` : screen.path
}

export interface ParsedPath {
  screen: Screen
  params: Readonly<Record<string, unknown>>
}

/** The screen and parameters a path names; null for an unknown screen or bad parameters. */
export function parseScreenPath(path: string): ParsedPath | null {
  const q = path.indexOf('?')
  const pathname = q < 0 ? path : path.slice(0, q)
  const screen = byPath.get(pathname)
  if (!screen) return null
  if (!hasParams(screen.name)) return { screen, params: {} }
  const raw = Object.fromEntries(new URLSearchParams(q < 0 ? '' : path.slice(q + 1)))
  const parsed = screenParams[screen.name].safeParse(raw)
  return parsed.success ? { screen, params: parsed.data } : null
}

/** The parameters of a path of screen `name`, or null when the path is another screen's or bad. */
export function paramsOf<N extends ParamScreen>(name: N, path: string): ScreenParams<N> | null {
  const parsed = parseScreenPath(path)
  return parsed && parsed.screen.name === name ? (parsed.params as ScreenParams<N>) : null
}

/** The `id` parameter of a path (the record a detail screen shows), or null. */
export function recordId(path: string): number | null {
  const id = parseScreenPath(path)?.params.id
  return typeof id === 'number' ? id : null
}

/** The canonical form of any path that names a screen; null when it names none. */
export function canonicalPath(path: string): string | null {
  const parsed = parseScreenPath(path)
  return parsed ? build(parsed.screen.name, parsed.params) : null
}
