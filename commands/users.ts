/**
 * People and accounts (issue 8 items 1, 4 and 7): new user, find user, edit, save, delete,
 * disable / enable, assign roles, and on accounts reset password, lock / unlock, disable /
 * enable. A row's buttons pass the record; from the palette a command acts on the user the
 * focused view publishes ({kind: 'user'}). The server decides every rule again.
 */
import { z } from 'zod'
import { screenPath } from '../contract/screenPaths.ts'
import * as api from '../contract/userEndpoints.ts'
import { createUserBody, userInput, type OneTimePassword } from '../contract/users.ts'
import { dialog, type CommandContext } from './context.ts'
import { Refusal, defineCommand, type AnyCommand } from './define.ts'

/** The create (id null) or edit dialog of a person, shown by the user screen. */
export const userEditor = dialog<{ id: number | null }>('admin.userEditor')
/** Shows a one-time password once, after a create or a reset. */
export const oneTimePasswordDialog = dialog<OneTimePassword & { reset: boolean }>('admin.oneTimePassword')

const id = z.number().int().positive()
const onAdminScreen = (ctx: CommandContext) => ctx.focus?.screen === 'user' || ctx.focus?.screen === 'account'

/** The user the command acts on: its argument, else the record the focused view shows. */
function userTarget(ctx: CommandContext, given: number | undefined): number {
  if (given !== undefined) return given
  const record = ctx.focus?.record
  if (record?.kind === 'user') return record.id
  throw new Refusal(ctx.t('admin.user.pickFirst'))
}

/** The account: its argument, else the first account of the given or focused user. */
async function accountTarget(ctx: CommandContext, args: { accountId?: number; userId?: number } | undefined): Promise<number> {
  if (args?.accountId !== undefined) return args.accountId
  const userId = userTarget(ctx, args?.userId)
  const page = await ctx.api.call(api.listAccounts, { userId, limit: 1 })
  const first = page.rows[0]
  if (!first) throw new Refusal(ctx.t('admin.user.pickFirst'))
  return first.id
}

function changed(ctx: CommandContext) {
  ctx.invalidate('users')
  ctx.invalidate('accounts')
}

const userScreen = screenPath('user', {})

export const newUser = defineCommand({
  id: 'admin.newUser',
  title: 'admin.command.newUser',
  section: 'admin',
  permission: 'user.create',
  keywords: ['new', 'create', 'user', 'account', '新建', '新增', '用户', '账号'],
  hotkey: 'alt+shift+n',
  run: (ctx) => {
    if (ctx.focus?.screen !== 'user') ctx.navigate(userScreen)
    ctx.ui.open(userEditor, { id: null })
  },
})

/** The palette's user source: by name, username or mobile prefix. */
export const findUser = defineCommand({
  id: 'admin.findUser',
  title: 'admin.command.findUser',
  section: 'admin',
  permission: 'user.view',
  keywords: ['find', 'search', 'user', 'phone', 'mobile', '查找', '搜索', '用户', '手机'],
  hotkey: 'alt+u',
  run: (ctx) => ctx.ui.openPalette('users'),
})

export const editUser = defineCommand({
  id: 'admin.editUser',
  title: 'admin.command.editUser',
  section: 'admin',
  permission: 'user.edit',
  args: z.object({ id: id.optional() }).optional(),
  when: onAdminScreen,
  run: (ctx, args) => {
    const target = userTarget(ctx, args?.id)
    if (ctx.focus?.screen !== 'user') ctx.navigate(userScreen)
    ctx.ui.open(userEditor, { id: target })
  },
})

/** Creates the person and shows the one-time password once. */
export const createUser = defineCommand({
  id: 'admin.createUser',
  title: 'admin.command.createUser',
  section: 'admin',
  permission: 'user.create',
  args: createUserBody,
  run: async (ctx, body) => {
    const otp = await ctx.api.call(api.createUser, body)
    ctx.ui.toast(ctx.t('message.saveSuccess'), 'success')
    changed(ctx)
    ctx.ui.open(oneTimePasswordDialog, { ...otp, reset: false })
  },
})

export const updateUser = defineCommand({
  id: 'admin.updateUser',
  title: 'admin.command.updateUser',
  section: 'admin',
  permission: 'user.edit',
  args: z.object({ id, input: userInput }),
  run: async (ctx, { id, input }) => {
    await ctx.api.call(api.updateUser, { id, input })
    ctx.ui.toast(ctx.t('message.editSuccess'), 'success')
    changed(ctx)
  },
})

export const assignRoles = defineCommand({
  id: 'admin.assignRoles',
  title: 'admin.command.assignRoles',
  section: 'admin',
  permission: 'user.manage',
  keywords: ['role', 'assign', '角色', '分配'],
  args: z.object({ id, roleIds: z.array(id) }),
  run: async (ctx, { id, roleIds }) => {
    await ctx.api.call(api.assignRoles, { id, roleIds })
    ctx.ui.toast(ctx.t('message.operationSuccess'), 'success')
    changed(ctx)
  },
})

export const deleteUser = defineCommand({
  id: 'admin.deleteUser',
  title: 'admin.command.deleteUser',
  section: 'admin',
  permission: 'user.delete',
  args: z.object({ id: id.optional() }).optional(),
  when: onAdminScreen,
  run: async (ctx, args) => {
    const target = userTarget(ctx, args?.id)
    if (!(await ctx.ui.confirm(ctx.t('deletion.confirm'), ctx.t('deletion.irreversible')))) return
    await ctx.api.call(api.deleteUser, { id: target })
    ctx.ui.toast(ctx.t('deletion.success'), 'success')
    changed(ctx)
  },
})

function userStatusCommand(status: 0 | 1) {
  return defineCommand({
    id: status === 0 ? 'admin.disableUser' : 'admin.enableUser',
    title: status === 0 ? 'admin.command.disableUser' : 'admin.command.enableUser',
    section: 'admin',
    permission: 'user.manage',
    keywords: status === 0 ? ['disable', 'user', '停用', '禁用', '用户'] : ['enable', 'user', '启用', '用户'],
    args: z.object({ id: id.optional() }).optional(),
    when: onAdminScreen,
    run: async (ctx, args) => {
      const target = userTarget(ctx, args?.id)
      if (status === 0 && !(await ctx.ui.confirm(ctx.t('admin.user.confirmDisable')))) return
      await ctx.api.call(api.setUserStatus, { id: target, status })
      ctx.ui.toast(ctx.t('message.updateStatusSuccess'), 'success')
      changed(ctx)
    },
  })
}
export const disableUser = userStatusCommand(0)
export const enableUser = userStatusCommand(1)

/** A row of the account list names the account; a row of the user list, the person (their first account). */
const accountArgs = z.object({ accountId: id.optional(), userId: id.optional() }).optional()

/** A new one-time password, shown once; the account's sessions end. */
export const resetPassword = defineCommand({
  id: 'admin.resetPassword',
  title: 'admin.command.resetPassword',
  section: 'admin',
  permission: 'user.manage',
  keywords: ['reset', 'password', '重置', '密码'],
  args: accountArgs,
  when: onAdminScreen,
  run: async (ctx, args) => {
    const accountId = await accountTarget(ctx, args)
    if (!(await ctx.ui.confirm(ctx.t('admin.account.confirmReset')))) return
    const otp = await ctx.api.call(api.resetPassword, { accountId })
    changed(ctx)
    ctx.ui.open(oneTimePasswordDialog, { ...otp, reset: true })
  },
})

export const lockAccount = defineCommand({
  id: 'admin.lockAccount',
  title: 'admin.command.lockAccount',
  section: 'admin',
  permission: 'user.manage',
  keywords: ['lock', 'account', '锁定', '账号'],
  args: z.object({ accountId: id.optional(), userId: id.optional(), until: z.iso.datetime({ offset: true }).optional() }).optional(),
  when: onAdminScreen,
  run: async (ctx, args) => {
    const accountId = await accountTarget(ctx, args)
    await ctx.api.call(api.lockAccount, { accountId, until: args?.until })
    ctx.ui.toast(ctx.t('message.operationSuccess'), 'success')
    changed(ctx)
  },
})

export const unlockAccount = defineCommand({
  id: 'admin.unlockAccount',
  title: 'admin.command.unlockAccount',
  section: 'admin',
  permission: 'user.manage',
  keywords: ['unlock', 'account', '解锁', '账号'],
  args: accountArgs,
  when: onAdminScreen,
  run: async (ctx, args) => {
    const accountId = await accountTarget(ctx, args)
    await ctx.api.call(api.unlockAccount, { accountId })
    ctx.ui.toast(ctx.t('message.operationSuccess'), 'success')
    changed(ctx)
  },
})

function accountStatusCommand(status: 0 | 1) {
  return defineCommand({
    id: status === 0 ? 'admin.disableAccount' : 'admin.enableAccount',
    title: status === 0 ? 'admin.command.disableAccount' : 'admin.command.enableAccount',
    section: 'admin',
    permission: 'user.manage',
    keywords: status === 0 ? ['disable', 'account', '停用', '账号'] : ['enable', 'account', '启用', '账号'],
    args: accountArgs,
    when: onAdminScreen,
    run: async (ctx, args) => {
      const accountId = await accountTarget(ctx, args)
      await ctx.api.call(api.setAccountStatus, { accountId, status })
      ctx.ui.toast(ctx.t('message.updateStatusSuccess'), 'success')
      changed(ctx)
    },
  })
}
export const disableAccount = accountStatusCommand(0)
export const enableAccount = accountStatusCommand(1)

export const userCommands: readonly AnyCommand[] = [
  newUser,
  findUser,
  editUser,
  createUser,
  updateUser,
  assignRoles,
  deleteUser,
  disableUser,
  enableUser,
  resetPassword,
  lockAccount,
  unlockAccount,
  disableAccount,
  enableAccount,
]
