import { templateListResponse, templatePaths, type Template } from '../../contract/crf.ts'
import type { Indicator } from '../../contract/dictionary.ts'
import { screenPath } from '../../contract/screenPaths.ts'
import { get } from '../api/client.ts'
import { listIndicators } from '../features/dictionary/api/listIndicators.ts'
import { listUsers } from '../features/admin/api/listUsers.ts'
import { bilingual } from '../../contract/bilingual.ts'
import type { UserRow } from '../../contract/users.ts'
import type { Lang } from '../i18n/index.ts'
import { listProjects } from '../features/projects/api/listProjects.ts'
import type { ProjectRow } from '../../contract/projects.ts'
import { projectScopes } from '../../contract/projects.ts'
import { holds } from '../state/session.ts'
import { currentProject as currentProjectState } from '../state/currentProject.ts'
import { listSubjects } from '../features/subjects/listApi.ts'

/**
 * Record sources of the palette (DESIGN §4: the palette also finds records). A command opens
 * one with `ctx.ui.openPalette(name)`; the palette then asks the server as one types (debounced),
 * shows at most `recordLimit` records, and opens the chosen one in a pane (Enter) or beside the
 * focused pane (Ctrl/⌘+Enter). The server filters and ranks: cmdk never scores thousands of items.
 */
export interface PaletteRecord {
  /** Unique in its source. */
  id: string
  title: string
  /** Dimmed: the other language's name, a type. */
  alt?: string
  /** Where it opens. */
  path: string
  /** Run instead of opening `path` (e.g. switching the current project). */
  command?: { id: string; args: unknown }
}

export interface RecordSource {
  /** i18n keys */
  placeholder: string
  heading: string
  /** i18n key of the line under the list; by default Enter opens and Ctrl/⌘+Enter opens to the side. */
  hint?: string
  search(q: string, lang: Lang, signal: AbortSignal): Promise<PaletteRecord[]>
}

export const recordLimit = 100

export const indicatorRecord = (r: Indicator, lang: Lang): PaletteRecord => {
  const [name, other] = lang === 'en' && r.nameEn ? [r.nameEn, r.nameZh] : [r.nameZh, r.nameEn]
  return { id: `indicator-${r.id}`, title: `${r.code} · ${name}`, alt: other || undefined, path: screenPath('fields', { id: r.id }) }
}

export const templateRecord = (r: Template): PaletteRecord => ({
  id: `template-${r.id}`,
  title: r.name,
  alt: r.description ? r.description.slice(0, 80) : undefined,
  path: screenPath('editCrfTemp', { id: r.id }),
})

const indicators: RecordSource = {
  placeholder: 'dictionary.palette.indicators',
  heading: 'dictionary.palette.indicatorHeading',
  search: async (q, lang, signal) => {
    // The server matches the prefix regardless of case ('bp' finds 'BP_SYS').
    const page = await listIndicators(
      { q: q.trim() || undefined, limit: recordLimit, sort: 'code', order: 'asc' },
      { signal, toast: false },
    )
    return page.rows.map((r) => indicatorRecord(r, lang))
  },
}

const templates: RecordSource = {
  placeholder: 'dictionary.palette.templates',
  heading: 'dictionary.palette.templateHeading',
  search: async (q, _lang, signal) => {
    const res = await get<Template[]>(
      templatePaths.list,
      { kind: 'crf', q: q.trim() || undefined },
      { signal, toast: false, schema: templateListResponse },
    )
    return (res.data ?? []).slice(0, recordLimit).map(templateRecord)
  },
}

export const userRecord = (r: UserRow): PaletteRecord => ({
  id: `user-${r.id}`,
  title: r.name,
  alt: [r.usernames.join(', '), r.mobile].filter(Boolean).join(' · ') || undefined,
  path: screenPath('user', { id: r.id }),
})

const users: RecordSource = {
  placeholder: 'admin.palette.users',
  heading: 'admin.palette.heading',
  search: async (q, _lang, signal) => {
    // The server matches a prefix of the name, a username (any case) or the mobile number.
    const page = await listUsers({ q: q.trim() || undefined, limit: recordLimit, sort: 'name', order: 'asc' }, { signal, toast: false })
    return page.rows.map(userRecord)
  },
}

export const projectRecord = (r: ProjectRow, lang: Lang): PaletteRecord => ({
  id: `project-${r.id}`,
  title: `${r.number} · ${r.name}`,
  alt:
    [r.diseaseName ? bilingual(r.diseaseName, r.diseaseNameEn ?? '', lang) : '', r.myRole ?? ''].filter(Boolean).join(' · ') || undefined,
  path: screenPath('multiDetail', { id: r.id }),
})

/** Multi- and single-center projects the caller may see, by a prefix of the name or the number; each list by name. */
async function findProjects(q: string, signal: AbortSignal): Promise<ProjectRow[]> {
  const pages = await Promise.all(
    projectScopes.map((scope) =>
      listProjects({ scope, q: q.trim() || undefined, limit: recordLimit / 2, sort: 'name', order: 'asc' }, { signal, toast: false }),
    ),
  )
  return pages.flatMap((page) => page.rows)
}

const projects: RecordSource = {
  placeholder: 'projects.palette.placeholder',
  heading: 'projects.palette.heading',
  search: async (q, lang, signal) => (await findProjects(q, signal)).map((r) => projectRecord(r, lang)),
}

/** The same projects; choosing one makes it the project the user works in. */
const currentProject: RecordSource = {
  placeholder: 'projects.palette.switchPlaceholder',
  heading: 'projects.palette.switchHeading',
  search: async (q, lang, signal) =>
    (await findProjects(q, signal)).map((r) => ({
      ...projectRecord(r, lang),
      command: { id: 'projects.switch', args: { id: r.id, name: r.name, number: r.number } },
    })),
}

/** Research objects of the current project by a prefix of their number (any case); none without a current project. */
async function findSubjects(q: string, signal: AbortSignal, toSide: boolean): Promise<PaletteRecord[]> {
  const studyId = currentProjectState.project?.id
  if (studyId === undefined) return []
  const page = await listSubjects({ studyId, q: q.trim() || undefined, limit: recordLimit }, { signal, toast: false })
  return page.rows.map((r) => ({
    id: `subject-${r.id}`,
    title: r.subjectNo,
    alt: [r.centerName, r.queueName].filter(Boolean).join(' · ') || undefined,
    path: screenPath('patientDetail', { studyId, id: r.id }),
    command: toSide ? { id: 'subjectList.openSubjectToSide', args: { studyId, id: r.id } } : undefined,
  }))
}

const subjects: RecordSource = {
  placeholder: 'subjectList.palette.placeholder',
  heading: 'subjectList.palette.heading',
  search: (q, _lang, signal) => findSubjects(q, signal, false),
}

/** The same subjects for "open research object to the side": Enter, too, opens the chosen one beside the focused pane. */
const subjectsToSide: RecordSource = {
  placeholder: 'subjectList.palette.placeholder',
  heading: 'subjectList.palette.heading',
  hint: 'subjectList.palette.toSideHint',
  search: (q, _lang, signal) => findSubjects(q, signal, true),
}

export const paletteSources: Readonly<Record<string, RecordSource>> = {
  /** Indicators by a prefix of their code, Chinese or English name. */
  indicators,
  /** CRFs by name (GET api/templates?kind=crf&q=…). */
  templates,
  /** People by a prefix of their name, a username or the mobile number (GET api/admin/users?q=…). */
  users,
  /** Projects by a prefix of their name or number (GET api/projects?q=…, both scopes). */
  projects,
  /** The same, to switch the current project. */
  currentProject,
  /** Research objects of the current project by subject number (GET …/studyObject/pageList?q=…). */
  subjects,
  /** The same, opened beside the focused pane. */
  subjectsToSide,
}

/** What Ctrl+K finds below the commands: CRFs, indicators, then projects, at most `recordLimit` in all. */
export const anyRecord: RecordSource = {
  placeholder: 'palette.placeholder',
  heading: 'palette.records',
  search: async (q, lang, signal) => {
    // Projects and subjects only for those who may see them; a refusal there leaves the other
    // records. Subjects are the current project's, by a prefix of their number, and come first:
    // a subject number typed into the palette is most often what was meant.
    const [people, crfs, found, studies] = await Promise.all([
      holds('subject.view') && q.trim() !== '' ? subjects.search(q, lang, signal).catch(() => []) : [],
      templates.search(q, lang, signal),
      indicators.search(q, lang, signal),
      holds('project.view') ? projects.search(q, lang, signal).catch(() => []) : [],
    ])
    return [...people, ...crfs, ...found, ...studies].slice(0, recordLimit)
  },
}
