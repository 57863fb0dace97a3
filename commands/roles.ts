import { z } from 'zod'
import * as api from '../contract/adminEndpoints.ts'
import { idValue } from '../contract/ids.ts'
import { roleInput } from '../contract/roles.ts'
import { screenPath } from '../contract/screenPaths.ts'
import { dialog, type CommandContext } from './context.ts'
import { defineCommand, type AnyCommand } from './define.ts'

/** System roles and their grants (issue 8 items 2 and 7). */

/** The role screen's editor: names, remarks and the grants editor; id null creates. */
export const roleEditor = dialog<{ id: number | null }>('admin.role')

/** Roles changed: their list reloads, and the user's own permission list (their grants may be among them). */
function rolesChanged(ctx: CommandContext) {
  ctx.invalidate('roles')
  ctx.invalidate('permissions')
}

function openEditor(ctx: CommandContext, id: number | null) {
  if (ctx.focus?.screen !== 'role') ctx.navigate(screenPath('role'))
  ctx.ui.open(roleEditor, { id })
}

/** With a role (names and grants) creates it at once; without, opens the editor. */
export const newRole = defineCommand({
  id: 'admin.newRole',
  title: 'org.command.newRole',
  section: 'admin',
  permission: 'role.create',
  keywords: ['new', 'create', 'role', 'permission', 'grant', '新建', '角色', '权限'],
  args: roleInput.optional(),
  run: async (ctx, args) => {
    if (!args) return openEditor(ctx, null)
    const created = await ctx.api.call(api.createRole, args)
    rolesChanged(ctx)
    ctx.ui.toast(ctx.t('org.role.created', [created.nameZh]), 'success')
  },
})

/** With the edited role saves it (grants replaced as a set); without, opens the editor on it. */
export const editRoleGrants = defineCommand({
  id: 'admin.editRoleGrants',
  title: 'org.command.editRoleGrants',
  section: 'admin',
  permission: 'role.edit',
  args: z.object({ id: idValue, input: roleInput.optional() }),
  run: async (ctx, args) => {
    if (!args.input) return openEditor(ctx, args.id)
    await ctx.api.call(api.updateRole, { id: args.id, ...args.input })
    rolesChanged(ctx)
    ctx.ui.toast(ctx.t('message.saveSuccess'), 'success')
  },
})

/** SPEC §8's confirmation first; the server refuses built-in roles and roles users hold (with the count). */
export const deleteRole = defineCommand({
  id: 'admin.deleteRole',
  title: 'org.command.deleteRole',
  section: 'admin',
  permission: 'role.delete',
  args: z.object({ id: idValue }),
  run: async (ctx, args) => {
    if (!(await ctx.ui.confirm(ctx.t('deletion.confirm'), ctx.t('deletion.irreversible')))) return
    await ctx.api.call(api.deleteRole, { id: args.id })
    rolesChanged(ctx)
    ctx.ui.toast(ctx.t('deletion.success'), 'success')
  },
})

export const roleCommands: AnyCommand[] = [newRole, editRoleGrants, deleteRole]
