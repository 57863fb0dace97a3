/**
 * CRF and question-group template commands (issue 4 item 7): new, edit, delete, design, add
 * indicators, move an indicator up / down, save the layout, preview, publish (SPEC §7
 * save…GenerateToDb), open to the side. The designer is reached through ctx.designer, the
 * create / edit dialog through ctx.templates; everything else through ctx.api and ctx.navigate.
 */
import { z } from 'zod'
import { collectTypes, generateState, templateKinds, templatePaths, type Template, type TemplateKind } from '../contract/crf.ts'
import { screens } from '../contract/screens.ts'
import type { CommandContext } from './context.ts'
import { defineCommand, type AnyCommand } from './define.ts'

type GenerateState = z.infer<typeof generateState>

const pathOf = (name: string): string => {
  const s = screens.find((x) => x.name === name)
  if (!s) throw new Error(`no screen ${name}`)
  return s.path
}

/** Screens of each kind: the managers (list), the designer, the field assignment. */
export const templateScreens = {
  crf: { managers: [pathOf('crfManager'), pathOf('crfTemplate')], designer: pathOf('editCrfTemp'), assign: pathOf('assignCRFFields') },
  group: { managers: [pathOf('subjectManager'), pathOf('subjectTemplate')], designer: pathOf('editSubjectTemp'), assign: pathOf('assignSubjectFields') },
} as const satisfies Record<TemplateKind, unknown>
export const previewPath = pathOf('previewCRF')

export const designerPath = (kind: TemplateKind, id: number) => `${templateScreens[kind].designer}?id=${id}`
export const assignPath = (kind: TemplateKind, id: number) => `${templateScreens[kind].assign}?id=${id}`
export const previewPathOf = (id: number, version?: number) => `${previewPath}?id=${id}${version ? `&version=${version}` : ''}`

const pathname = (path: string) => path.split('?')[0] ?? ''

/** The template a screen's path names (?id=), with its kind when the screen tells it. */
export function templateTarget(path: string): { id: number; kind: TemplateKind | null } | null {
  const [name = '', search = ''] = path.split('?')
  const id = Number(new URLSearchParams(search).get('id'))
  if (!Number.isSafeInteger(id) || id <= 0) return null
  for (const kind of templateKinds) {
    const s = templateScreens[kind]
    if (name === s.designer || name === s.assign) return { id, kind }
  }
  return name === previewPath ? { id, kind: null } : null
}

/** The manager screen of this kind the focused pane shows, if any. */
const onManager = (ctx: CommandContext, kind: TemplateKind) => (templateScreens[kind].managers as readonly string[]).includes(pathname(ctx.path))

async function kindOf(ctx: CommandContext, target: { id: number; kind: TemplateKind | null }): Promise<TemplateKind> {
  if (target.kind) return target.kind
  const t = await ctx.api.get<Template>(templatePaths.one(target.id))
  return t.kind
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
    keywords,
    hotkey,
    args: createArgs,
    when: (ctx) => ctx.signedIn,
    run: async (ctx, args) => {
      if (args) {
        const created = await ctx.api.post<Template>(templatePaths.list, { kind, name: args.name, description: args.description ?? '', collectType: args.collectType ?? 'all' })
        ctx.invalidate('templates')
        ctx.ui.toast(ctx.t('template.created', [created.name]), 'success')
        ctx.navigate(designerPath(kind, created.id))
        return
      }
      if (!onManager(ctx, kind)) ctx.navigate(templateScreens[kind].managers[0])
      ctx.templates?.openEditor(kind)
    },
  })
}

export const newCrf = createCommand('crf', 'templates.newCrf', 'template.command.newCrf', 'alt+shift+c', ['new', 'create', 'crf', 'form', '新建', '新增', '表单'])
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
  args: ref,
  when: (ctx) => ctx.signedIn,
  run: (ctx, args) => {
    if (!onManager(ctx, args.kind)) ctx.navigate(templateScreens[args.kind].managers[0])
    ctx.templates?.openEditor(args.kind, args.id)
  },
})

/** SPEC §8: asks first; the server refuses while indicators are placed, and its message is shown. */
export const deleteTemplate = defineCommand({
  id: 'templates.delete',
  title: 'template.command.delete',
  section: 'templates',
  args: ref.extend({ name: z.string().optional() }),
  when: (ctx) => ctx.signedIn,
  run: async (ctx, args) => {
    const yes = await ctx.ui.confirm(ctx.t('deletion.confirm'), ctx.t('deletion.irreversible'))
    if (!yes) return
    await ctx.api.del(templatePaths.one(args.id))
    ctx.invalidate('templates')
    ctx.ui.toast(ctx.t('deletion.success'), 'success')
  },
})

/** Opens a template in the layout designer. */
export const designTemplate = defineCommand({
  id: 'templates.design',
  title: 'template.command.design',
  section: 'templates',
  args: ref,
  when: (ctx) => ctx.signedIn,
  run: (ctx, args) => ctx.navigate(designerPath(args.kind, args.id)),
})

/** Opens a version of a template in the preview (the draft, else the latest, without one). */
export const previewTemplate = defineCommand({
  id: 'templates.preview',
  title: 'template.command.preview',
  section: 'templates',
  keywords: ['preview', 'crf', 'form', '预览', '表单'],
  hotkey: 'alt+shift+v',
  when: (ctx) => ctx.signedIn && (ctx.designer !== undefined || templateTarget(ctx.path)?.kind != null),
  run: async (ctx) => {
    const id = ctx.designer?.templateId ?? templateTarget(ctx.path)?.id
    if (id === undefined) return
    // The preview shows what the server holds: unsaved edits are saved first.
    if (ctx.designer?.dirty) await ctx.designer.save()
    ctx.navigate(previewPathOf(id))
  },
})

/** A list row's preview button: a named template (and version). */
export const previewOf = defineCommand({
  id: 'templates.previewOf',
  title: 'template.command.previewOf',
  section: 'templates',
  args: z.object({ id: idArg, version: idArg.optional() }),
  when: (ctx) => ctx.signedIn,
  run: (ctx, args) => ctx.navigate(previewPathOf(args.id, args.version)),
})

/** Adds indicators from the dictionary to the designer in the focused pane. */
export const addIndicators = defineCommand({
  id: 'templates.addIndicators',
  title: 'template.command.addIndicators',
  section: 'templates',
  keywords: ['add', 'indicator', 'field', 'assign', '添加', '指标', '字段'],
  hotkey: 'alt+shift+a',
  when: (ctx) => ctx.signedIn && ctx.designer !== undefined,
  run: (ctx) => ctx.designer?.openAddIndicators(),
})

function moveCommand(delta: -1 | 1) {
  return defineCommand({
    id: delta < 0 ? 'templates.moveUp' : 'templates.moveDown',
    title: delta < 0 ? 'template.command.moveUp' : 'template.command.moveDown',
    section: 'templates',
    keywords: delta < 0 ? ['move', 'up', 'order', '上移', '排序'] : ['move', 'down', 'order', '下移', '排序'],
    hotkey: delta < 0 ? 'alt+up' : 'alt+down',
    when: (ctx) => ctx.signedIn && ctx.designer !== undefined && ctx.designer.selected !== null,
    enabled: (ctx) => ctx.designer?.canMove(delta) ?? false,
    run: (ctx) => ctx.designer?.moveSelected(delta),
  })
}
export const moveUp = moveCommand(-1)
export const moveDown = moveCommand(1)

export const saveLayout = defineCommand({
  id: 'templates.saveLayout',
  title: 'template.command.save',
  section: 'templates',
  keywords: ['save', 'layout', '保存', '布局'],
  hotkey: 'ctrl+s, command+s',
  when: (ctx) => ctx.signedIn && ctx.designer !== undefined,
  run: async (ctx) => {
    await ctx.designer?.save()
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
  keywords: ['publish', 'generate', 'release', 'version', '发布', '生成', '版本'],
  hotkey: 'alt+shift+p',
  when: (ctx) => ctx.signedIn && templateTarget(ctx.path) !== null,
  run: async (ctx) => {
    const target = templateTarget(ctx.path)
    if (!target) return
    const kind = ctx.designer?.templateId === target.id ? ctx.designer.kind : await kindOf(ctx, target)
    if (ctx.designer?.templateId === target.id && ctx.designer.dirty) await ctx.designer.save()
    const paths = kind === 'crf' ? { check: templatePaths.checkCrf, publish: templatePaths.publishCrf } : { check: templatePaths.checkGroup, publish: templatePaths.publishGroup }
    const state = await ctx.api.get<GenerateState>(paths.check, { id: target.id })
    if (!state.pending) {
      ctx.ui.toast(ctx.t('template.nothingToPublish'), 'warning')
      return
    }
    const next = state.version === null ? 1 : state.version + 1
    const yes = await ctx.ui.confirm(ctx.t('template.publishConfirm', [next]), ctx.t('template.publishDetail'))
    if (!yes) return
    const after = await ctx.api.post<GenerateState>(paths.publish, undefined, { id: target.id })
    ctx.invalidate('templates')
    ctx.ui.toast(ctx.t('template.publishedAs', [after.version ?? next]), 'success')
  },
})

/** With an id: the template's designer beside the focused pane; without: pick one in the palette. */
export const openTemplateToSide = defineCommand({
  id: 'templates.openToSide',
  title: 'template.command.openToSide',
  section: 'templates',
  keywords: ['open', 'side', 'beside', 'compare', 'crf', '打开', '侧边', '对比', '表单'],
  hotkey: 'alt+shift+o',
  args: z.object({ id: idArg, kind: z.enum(templateKinds).default('crf') }).optional(),
  when: (ctx) => ctx.signedIn,
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
  saveLayout,
  previewTemplate,
  previewOf,
  publishTemplate,
  openTemplateToSide,
  designTemplate,
  editTemplate,
  deleteTemplate,
]
