import { z } from 'zod'
import * as api from '../contract/adminEndpoints.ts'
import { idValue } from '../contract/ids.ts'
import { careerInput, departmentName } from '../contract/organization.ts'
import { screenPath } from '../contract/screenPaths.ts'
import { dialog, type CommandContext } from './context.ts'
import { defineCommand, type AnyCommand } from './define.ts'

/** Departments and careers (issue 8 item 1): each action a command, buttons and the palette run them. */

/** The department screen's name dialog (create under a parent, rename) and its move picker. */
export type DepartmentDialogArgs =
  { mode: 'create'; parentId: number | null } | { mode: 'rename'; id: number; name: string } | { mode: 'move'; id: number }
export const departmentDialog = dialog<DepartmentDialogArgs>('admin.department')

/** The career screen's create (id null) or edit dialog. */
export const careerDialog = dialog<{ id: number | null }>('admin.career')

/** Opens `screen` when another has the focus, so its dialog shows. */
function onScreen(ctx: CommandContext, screen: 'department' | 'career') {
  if (ctx.focus?.screen !== screen) ctx.navigate(screenPath(screen))
}

function departmentsChanged(ctx: CommandContext) {
  ctx.invalidate('departments')
}

export const newDepartment = defineCommand({
  id: 'admin.newDepartment',
  title: 'org.command.newDepartment',
  section: 'admin',
  permission: 'organization.create',
  keywords: ['new', 'create', 'department', '新建', '部门', '科室'],
  args: z.object({ name: departmentName.optional(), parentId: idValue.nullable().default(null) }).optional(),
  run: async (ctx, args) => {
    if (args?.name) {
      const created = await ctx.api.call(api.createDepartment, { name: args.name, parentId: args.parentId })
      departmentsChanged(ctx)
      ctx.ui.toast(ctx.t('org.department.created', [created.name]), 'success')
      return
    }
    onScreen(ctx, 'department')
    ctx.ui.open(departmentDialog, { mode: 'create', parentId: args?.parentId ?? null })
  },
})

export const renameDepartment = defineCommand({
  id: 'admin.renameDepartment',
  title: 'org.command.renameDepartment',
  section: 'admin',
  permission: 'organization.edit',
  args: z.object({ id: idValue, name: departmentName.optional(), current: z.string().default('') }),
  run: async (ctx, args) => {
    if (args.name) {
      await ctx.api.call(api.renameDepartment, { id: args.id, name: args.name })
      departmentsChanged(ctx)
      ctx.ui.toast(ctx.t('message.saveSuccess'), 'success')
      return
    }
    onScreen(ctx, 'department')
    ctx.ui.open(departmentDialog, { mode: 'rename', id: args.id, name: args.current })
  },
})

/** With a parent (null: the top level) moves at once; without, opens the "move to…" picker. */
export const moveDepartment = defineCommand({
  id: 'admin.moveDepartment',
  title: 'org.command.moveDepartment',
  section: 'admin',
  permission: 'organization.edit',
  args: z.object({ id: idValue, parentId: idValue.nullable().optional(), index: z.number().int().min(0).optional() }),
  run: async (ctx, args) => {
    if (args.parentId !== undefined) {
      await ctx.api.call(api.moveDepartment, { id: args.id, parentId: args.parentId, index: args.index ?? 100_000 })
      departmentsChanged(ctx)
      ctx.ui.toast(ctx.t('org.department.moved'), 'success')
      return
    }
    onScreen(ctx, 'department')
    ctx.ui.open(departmentDialog, { mode: 'move', id: args.id })
  },
})

/** SPEC §8's confirmation first; the server refuses while users or sub-departments are in it, and says how many. */
export const deleteDepartment = defineCommand({
  id: 'admin.deleteDepartment',
  title: 'org.command.deleteDepartment',
  section: 'admin',
  permission: 'organization.delete',
  args: z.object({ id: idValue }),
  run: async (ctx, args) => {
    if (!(await ctx.ui.confirm(ctx.t('deletion.confirm'), ctx.t('deletion.irreversible')))) return
    await ctx.api.call(api.deleteDepartment, { id: args.id })
    departmentsChanged(ctx)
    ctx.ui.toast(ctx.t('deletion.success'), 'success')
  },
})

export const newCareer = defineCommand({
  id: 'admin.newCareer',
  title: 'org.command.newCareer',
  section: 'admin',
  permission: 'organization.create',
  keywords: ['new', 'create', 'career', 'job title', '新建', '职务', '职称'],
  args: careerInput.optional(),
  run: async (ctx, args) => {
    if (args) {
      const created = await ctx.api.call(api.createCareer, args)
      ctx.invalidate('careers')
      ctx.ui.toast(ctx.t('org.career.created', [created.name]), 'success')
      return
    }
    onScreen(ctx, 'career')
    ctx.ui.open(careerDialog, { id: null })
  },
})

/** With the edited name and remarks saves them; without, opens the dialog on the career. */
export const editCareer = defineCommand({
  id: 'admin.editCareer',
  title: 'org.command.editCareer',
  section: 'admin',
  permission: 'organization.edit',
  args: z.object({ id: idValue, input: careerInput.optional() }),
  run: async (ctx, args) => {
    if (args.input) {
      await ctx.api.call(api.updateCareer, { id: args.id, ...args.input })
      ctx.invalidate('careers')
      ctx.ui.toast(ctx.t('message.saveSuccess'), 'success')
      return
    }
    onScreen(ctx, 'career')
    ctx.ui.open(careerDialog, { id: args.id })
  },
})

export const deleteCareer = defineCommand({
  id: 'admin.deleteCareer',
  title: 'org.command.deleteCareer',
  section: 'admin',
  permission: 'organization.delete',
  args: z.object({ id: idValue }),
  run: async (ctx, args) => {
    if (!(await ctx.ui.confirm(ctx.t('deletion.confirm'), ctx.t('deletion.irreversible')))) return
    await ctx.api.call(api.deleteCareer, { id: args.id })
    ctx.invalidate('careers')
    ctx.ui.toast(ctx.t('deletion.success'), 'success')
  },
})

export const organizationCommands: AnyCommand[] = [
  newDepartment,
  renameDepartment,
  moveDepartment,
  deleteDepartment,
  newCareer,
  editCareer,
  deleteCareer,
]
