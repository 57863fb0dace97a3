/**
 * CRF and question-group template commands (issue 4 item 7): new, edit, delete, design, add
 * indicators, move an indicator up / down, required, section title, add section, sub form, save
 * the layout, preview, publish (SPEC §7 save…GenerateToDb), open to the side. The designer in the
 * focused pane is reached through its capability (ctx.focus.use(designer)), the create / edit
 * dialog by its id (ctx.ui.open(templateEditor, …)), the server through typed endpoints.
 */
import { z } from 'zod'
import { collectTypes, templateKinds, type TemplateKind } from '../contract/crf.ts'
import { paramsOf, parseScreenPath, screenPath } from '../contract/screenPaths.ts'
import * as api from '../contract/templateEndpoints.ts'
import { capability, dialog, type CommandContext } from './context.ts'
import { defineCommand, type AnyCommand } from './define.ts'

/** Screens of each kind: the managers (list), the designer, the field assignment. */
export const templateScreens = {
  crf: { managers: ['crfManager', 'crfTemplate'], designer: 'editCrfTemp', assign: 'assignCRFFields' },
  group: { managers: ['subjectManager', 'subjectTemplate'], designer: 'editSubjectTemp', assign: 'assignSubjectFields' },
} as const satisfies Record<TemplateKind, unknown>

export const designerPath = (kind: TemplateKind, id: number) => screenPath(templateScreens[kind].designer, { id })
export const previewPathOf = (id: number, version?: number) => screenPath('previewCRF', { id, version })

/** The template a screen's path names, with its kind when the screen tells it. */
export function templateTarget(path: string): { id: number; kind: TemplateKind | null } | null {
  const parsed = parseScreenPath(path)
  if (!parsed) return null
  const name = parsed.screen.name
  for (const kind of templateKinds) {
    const s = templateScreens[kind]
    if (name === s.designer || name === s.assign) return { id: parsed.params.id as number, kind }
  }
  const preview = paramsOf('previewCRF', path)
  return preview ? { id: preview.id, kind: null } : null
}

/** What the layout designer in the focused pane offers commands. */
export interface DesignerActions {
  templateId: number
  kind: TemplateKind
  /** The selected item's indicator id, or null. */
  selected: number | null
  /** Whether the selected item is required; null without a selection. */
  selectedRequired: boolean | null
  /** The section of the selected item, else the last one; null when there is none. */
  section: { key: string; repeating: boolean } | null
  /** The layout has changes not yet saved. */
  dirty: boolean
  /** Whether the selected item can move one place up (-1) or down (+1), across sections too. */
  canMove(delta: -1 | 1): boolean
  moveSelected(delta: -1 | 1): void
  toggleRequired(): void
  /** Adds a section at the end and puts the focus on its title. */
  addSection(): void
  /** Puts the focus on the current section's title, to rename it. */
  editSectionTitle(): void
  /** Makes the current section a sub form (repeating rows) or a plain section again. */
  toggleRepeating(): void
  /** Opens the add-indicators picker (search the dictionary, multi-select). */
  openAddIndicators(): void
  /** Writes the layout into the draft (PUT …/layout); rejects when the server refuses. */
  save(): Promise<void>
}
export const designer = capability<DesignerActions>('templates.designer')

/** The create (id null) or edit dialog of a CRF or question group, shown by its manager screen. */
export const templateEditor = dialog<{ kind: TemplateKind; id: number | null }>('templates.editor')

const designerOf = (ctx: CommandContext) => ctx.focus?.use(designer)

/** The manager screen of this kind the focused pane shows, if any. */
const onManager = (ctx: CommandContext, kind: TemplateKind) =>
  (templateScreens[kind].managers as readonly string[]).includes(ctx.focus?.screen ?? '')

async function kindOf(ctx: CommandContext, target: { id: number; kind: TemplateKind | null }): Promise<TemplateKind> {
  if (target.kind) return target.kind
  return (await ctx.api.call(api.getTemplate, { id: target.id })).kind
}

const idArg = z.number().int().positive()
const ref = z.object({ id: idArg, kind: z.enum(templateKinds) })

const createArgs = z
  .object({
    name: z.string().trim().min(1).max(100),
    description: z.string().max(1000).optional(),
    collectType: z.enum(collectTypes).optional(),
  })
  .optional()

/** With a name: created at once (and opened in the designer); without: the create dialog. */
function createCommand(kind: TemplateKind, id: string, title: string, hotkey: string | undefined, keywords: string[]) {
  return defineCommand({
    id,
    title,
    section: 'templates',
    permission: 'template.create',
    keywords,
    hotkey,
    args: createArgs,
    run: async (ctx, args) => {
      if (args) {
        const created = await ctx.api.call(api.createTemplate, {
          kind,
          name: args.name,
          description: args.description ?? '',
          collectType: args.collectType ?? 'all',
          preposeIds: [],
          status: 1,
        })
        ctx.invalidate('templates')
        ctx.ui.toast(ctx.t('template.created', [created.name]), 'success')
        ctx.navigate(designerPath(kind, created.id))
        return
      }
      if (!onManager(ctx, kind)) ctx.navigate(screenPath(templateScreens[kind].managers[0]))
      ctx.ui.open(templateEditor, { kind, id: null })
    },
  })
}

export const newCrf = createCommand('crf', 'templates.newCrf', 'template.command.newCrf', 'alt+shift+c', [
  'new',
  'create',
  'crf',
  'form',
  '新建',
  '新增',
  '表单',
])
export const newGroup = createCommand('group', 'templates.newGroup', 'template.command.newGroup', undefined, [
  'new',
  'create',
  'question group',
  'subject',
  '新建',
  '题组',
])

/** A row's edit button: the edit dialog on the manager of its kind. */
export const editTemplate = defineCommand({
  id: 'templates.edit',
  title: 'template.command.edit',
  section: 'templates',
  permission: 'template.edit',
  args: ref,
  run: (ctx, args) => {
    if (!onManager(ctx, args.kind)) ctx.navigate(screenPath(templateScreens[args.kind].managers[0]))
    ctx.ui.open(templateEditor, { kind: args.kind, id: args.id })
  },
})

/** SPEC §8: asks first; the server refuses while indicators are placed, and its message is shown. */
export const deleteTemplate = defineCommand({
  id: 'templates.delete',
  title: 'template.command.delete',
  section: 'templates',
  permission: 'template.delete',
  args: ref.extend({ name: z.string().optional() }),
  run: async (ctx, args) => {
    const yes = await ctx.ui.confirm(ctx.t('deletion.confirm'), ctx.t('deletion.irreversible'))
    if (!yes) return
    await ctx.api.call(api.deleteTemplate, { id: args.id })
    ctx.invalidate('templates')
    ctx.ui.toast(ctx.t('deletion.success'), 'success')
  },
})

/** Opens a template in the layout designer. */
export const designTemplate = defineCommand({
  id: 'templates.design',
  title: 'template.command.design',
  section: 'templates',
  permission: 'template.edit',
  args: ref,
  run: (ctx, args) => ctx.navigate(designerPath(args.kind, args.id)),
})

/** Opens a version of a template in the preview (the draft, else the latest, without one). */
export const previewTemplate = defineCommand({
  id: 'templates.preview',
  title: 'template.command.preview',
  section: 'templates',
  permission: 'template.view',
  keywords: ['preview', 'crf', 'form', '预览', '表单'],
  hotkey: 'alt+shift+v',
  when: (ctx) => designerOf(ctx) !== undefined || templateTarget(ctx.path)?.kind != null,
  run: async (ctx) => {
    const d = designerOf(ctx)
    const id = d?.templateId ?? templateTarget(ctx.path)?.id
    if (id === undefined) return
    // The preview shows what the server holds: unsaved edits are saved first.
    if (d?.dirty) await d.save()
    ctx.navigate(previewPathOf(id))
  },
})

/** A list row's preview button: a named template (and version). */
export const previewOf = defineCommand({
  id: 'templates.previewOf',
  title: 'template.command.previewOf',
  section: 'templates',
  permission: 'template.view',
  args: z.object({ id: idArg, version: idArg.optional() }),
  run: (ctx, args) => ctx.navigate(previewPathOf(args.id, args.version)),
})

/** Adds indicators from the dictionary to the designer in the focused pane. */
export const addIndicators = defineCommand({
  id: 'templates.addIndicators',
  title: 'template.command.addIndicators',
  section: 'templates',
  permission: 'template.edit',
  keywords: ['add', 'indicator', 'field', 'assign', '添加', '指标', '字段'],
  hotkey: 'alt+shift+a',
  when: (ctx) => designerOf(ctx) !== undefined,
  run: (ctx) => designerOf(ctx)?.openAddIndicators(),
})

function moveCommand(delta: -1 | 1) {
  return defineCommand({
    id: delta < 0 ? 'templates.moveUp' : 'templates.moveDown',
    title: delta < 0 ? 'template.command.moveUp' : 'template.command.moveDown',
    section: 'templates',
    permission: 'template.edit',
    keywords: delta < 0 ? ['move', 'up', 'order', '上移', '排序'] : ['move', 'down', 'order', '下移', '排序'],
    hotkey: delta < 0 ? 'alt+up' : 'alt+down',
    when: (ctx) => (designerOf(ctx)?.selected ?? null) !== null,
    enabled: (ctx) => designerOf(ctx)?.canMove(delta) ?? false,
    run: (ctx) => designerOf(ctx)?.moveSelected(delta),
  })
}
export const moveUp = moveCommand(-1)
export const moveDown = moveCommand(1)

/** The selected item is required (or optional again). */
export const toggleRequired = defineCommand({
  id: 'templates.toggleRequired',
  title: 'template.command.toggleRequired',
  section: 'templates',
  permission: 'template.edit',
  keywords: ['required', 'mandatory', 'optional', '必填', '必选'],
  hotkey: 'alt+r',
  when: (ctx) => (designerOf(ctx)?.selected ?? null) !== null,
  run: (ctx) => designerOf(ctx)?.toggleRequired(),
})

export const addSection = defineCommand({
  id: 'templates.addSection',
  title: 'template.command.addSection',
  section: 'templates',
  permission: 'template.edit',
  keywords: ['add', 'section', 'group', '添加', '分节', '段落'],
  hotkey: 'alt+shift+s',
  when: (ctx) => designerOf(ctx) !== undefined,
  run: (ctx) => designerOf(ctx)?.addSection(),
})

export const editSectionTitle = defineCommand({
  id: 'templates.sectionTitle',
  title: 'template.command.sectionTitle',
  section: 'templates',
  permission: 'template.edit',
  keywords: ['section', 'title', 'rename', 'name', '分节', '标题', '重命名'],
  hotkey: 'alt+shift+r',
  when: (ctx) => designerOf(ctx)?.section != null,
  run: (ctx) => designerOf(ctx)?.editSectionTitle(),
})

export const toggleSubForm = defineCommand({
  id: 'templates.toggleSubForm',
  title: 'template.command.toggleSubForm',
  section: 'templates',
  permission: 'template.edit',
  keywords: ['sub form', 'repeating', 'rows', 'table', '子表单', '重复', '多行'],
  hotkey: 'alt+shift+u',
  when: (ctx) => designerOf(ctx)?.section != null,
  run: (ctx) => designerOf(ctx)?.toggleRepeating(),
})

export const saveLayout = defineCommand({
  id: 'templates.saveLayout',
  title: 'template.command.save',
  section: 'templates',
  permission: 'template.edit',
  keywords: ['save', 'layout', '保存', '布局'],
  hotkey: 'ctrl+s, command+s',
  when: (ctx) => designerOf(ctx) !== undefined,
  run: async (ctx) => {
    await designerOf(ctx)?.save()
    ctx.ui.toast(ctx.t('message.saveSuccess'), 'success')
  },
})

/**
 * SPEC §7: checkHas…GenerateToDb, then (after a yes) save…GenerateToDb. Unsaved designer edits
 * are saved first; with nothing pending there is nothing to ask.
 */
export const publishTemplate = defineCommand({
  id: 'templates.publish',
  title: 'template.command.publish',
  section: 'templates',
  permission: 'template.publish',
  keywords: ['publish', 'generate', 'release', 'version', '发布', '生成', '版本'],
  hotkey: 'alt+shift+p',
  when: (ctx) => templateTarget(ctx.path) !== null,
  run: async (ctx) => {
    const target = templateTarget(ctx.path)
    if (!target) return
    const d = designerOf(ctx)
    const here = d?.templateId === target.id ? d : undefined
    const kind = here ? here.kind : await kindOf(ctx, target)
    if (here?.dirty) await here.save()
    const state = await ctx.api.call(api.checkGenerate, { kind, id: target.id })
    if (!state.pending) {
      ctx.ui.toast(ctx.t('template.nothingToPublish'), 'warning')
      return
    }
    const next = state.version === null ? 1 : state.version + 1
    const yes = await ctx.ui.confirm(ctx.t('template.publishConfirm', [next]), ctx.t('template.publishDetail'))
    if (!yes) return
    const after = await ctx.api.call(api.publish, { kind, id: target.id })
    ctx.invalidate('templates')
    ctx.ui.toast(ctx.t('template.publishedAs', [after.version ?? next]), 'success')
  },
})

/** With an id: the template's designer beside the focused pane; without: pick one in the palette. */
export const openTemplateToSide = defineCommand({
  id: 'templates.openToSide',
  title: 'template.command.openToSide',
  section: 'templates',
  permission: 'template.view',
  keywords: ['open', 'side', 'beside', 'compare', 'crf', '打开', '侧边', '对比', '表单'],
  hotkey: 'alt+shift+o',
  args: z.object({ id: idArg, kind: z.enum(templateKinds).default('crf') }).optional(),
  run: (ctx, args) => {
    if (args) ctx.panes.openToSide(designerPath(args.kind, args.id))
    else ctx.ui.openPalette('templates')
  },
})

export const templateCommands: AnyCommand[] = [
  newCrf,
  newGroup,
  addIndicators,
  moveUp,
  moveDown,
  toggleRequired,
  addSection,
  editSectionTitle,
  toggleSubForm,
  saveLayout,
  previewTemplate,
  previewOf,
  publishTemplate,
  openTemplateToSide,
  designTemplate,
  editTemplate,
  deleteTemplate,
]
