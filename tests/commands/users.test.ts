/**
 * The people and account commands (issue 8 item 7) run through the registry's execute with a
 * test context: what each one does to the world, which permission it needs, and what it refuses.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Endpoint } from '../../contract/endpoint.ts'
import * as endpoints from '../../contract/userEndpoints.ts'
import type { AccountRow, OneTimePassword } from '../../contract/users.ts'
import { oneTimePasswordDialog, userCommands, userEditor } from '../../commands/users.ts'
import { execute, getCommand, isAvailable } from '../../commands/registry.ts'
import { expectOnly, testContext } from './context.ts'

afterEach(() => {
  vi.restoreAllMocks()
})

const run = (id: string, ctx: ReturnType<typeof testContext>, args?: unknown) => execute(getCommand(id), ctx, 'test', args)

const otp: OneTimePassword = { userId: 7, accountId: 9, username: 'zhang', password: 'Abc123xyz789QWer' }
const account = (over: Partial<AccountRow> = {}): AccountRow => ({
  id: 9,
  userId: 7,
  userName: '张三',
  username: 'zhang',
  platform: 'web',
  status: 1,
  lockedUntil: null,
  lastLoginAt: null,
  lastLoginIp: null,
  mustChangePassword: false,
  createdAt: '2026-11-28T00:00:00.000Z',
  ...over,
})
const detail = {
  id: 7,
  name: '张三',
  image: '',
  departmentId: null,
  department: null,
  careerId: null,
  career: null,
  mobile: '',
  email: '',
  status: 1,
  roles: [],
  usernames: ['zhang'],
  createdAt: '2026-11-28T00:00:00.000Z',
  description: '',
  updatedAt: '2026-11-28T00:00:00.000Z',
}

/** Answers each endpoint with what its output schema expects. */
function server(endpoint: Endpoint<unknown, unknown>): unknown {
  switch (endpoint) {
    case endpoints.createUser:
    case endpoints.resetPassword:
      return otp
    case endpoints.listAccounts:
      return { rows: [account()], next: null, total: 1 }
    case endpoints.lockAccount:
    case endpoints.unlockAccount:
    case endpoints.setAccountStatus:
      return account()
    case endpoints.updateUser:
    case endpoints.assignRoles:
      return detail
    default:
      return undefined
  }
}
const answer = <T>(endpoint: Endpoint<unknown, unknown>): Promise<T> => Promise.resolve(server(endpoint) as T)

const userScreen = '/management/user'
const onUser = (over: Parameters<typeof testContext>[0] = {}) => testContext({ lang: 'en', path: userScreen, answer, ...over })

describe('permissions', () => {
  it('every admin command names the permission it needs, and without it is hidden and inert', async () => {
    for (const c of userCommands) expect(c.permission, c.id).toMatch(/^user\./)
    const viewer = onUser({ grants: ['user.view'] })
    const shown = userCommands.filter((c) => isAvailable(c, viewer)).map((c) => c.id)
    expect(shown).toEqual(['admin.findUser'])
    await expect(run('admin.resetPassword', viewer, { accountId: 9 })).resolves.toMatchObject({ ok: false, reason: 'unavailable' })
    expect(viewer.api.call).not.toHaveBeenCalled()
  })

  it('record commands are offered on the user and account screens only', () => {
    const elsewhere = testContext({ path: '/dashboard' })
    expect(isAvailable(getCommand('admin.disableUser'), elsewhere)).toBe(false)
    expect(isAvailable(getCommand('admin.newUser'), elsewhere)).toBe(true)
    expect(isAvailable(getCommand('admin.lockAccount'), testContext({ path: '/management/account' }))).toBe(true)
  })
})

describe('people', () => {
  it('new user opens the create dialog, going to the user screen first when elsewhere', async () => {
    const elsewhere = testContext({ path: '/dashboard' })
    await expect(run('admin.newUser', elsewhere)).resolves.toEqual({ ok: true })
    expect(elsewhere.navigate).toHaveBeenCalledWith(userScreen)
    expect(elsewhere.ui.open).toHaveBeenCalledWith(userEditor, { id: null })
    const here = onUser()
    await run('admin.newUser', here)
    expectOnly(here, 'ui.open')
  })

  it('find user opens the palette on the user records', async () => {
    const ctx = onUser()
    await run('admin.findUser', ctx)
    expect(ctx.ui.openPalette).toHaveBeenCalledWith('users')
    expectOnly(ctx, 'ui.openPalette')
  })

  it('create sends the person and shows the one-time password once', async () => {
    const ctx = onUser()
    const body = { name: '张三', username: 'zhang', roleIds: [4] }
    await expect(run('admin.createUser', ctx, body)).resolves.toEqual({ ok: true })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.createUser, expect.objectContaining({ ...body, platform: 'web', status: 1 }))
    expect(ctx.ui.open).toHaveBeenCalledWith(oneTimePasswordDialog, { ...otp, reset: false })
    expect(ctx.invalidate).toHaveBeenCalledWith('users')
    expect(ctx.invalidate).toHaveBeenCalledWith('accounts')
  })

  it('create refuses a bad username before anything is sent', async () => {
    const ctx = onUser()
    await expect(run('admin.createUser', ctx, { name: 'X', username: 'has space' })).resolves.toMatchObject({
      ok: false,
      reason: 'badArgs',
    })
    expect(ctx.api.call).not.toHaveBeenCalled()
  })

  it('edit from the palette acts on the focused user; without one it says to pick one', async () => {
    const ctx = onUser({ record: { kind: 'user', id: 7, name: '张三' } })
    await run('admin.editUser', ctx)
    expect(ctx.ui.open).toHaveBeenCalledWith(userEditor, { id: 7 })
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const none = onUser()
    await expect(run('admin.editUser', none)).resolves.toMatchObject({ ok: false, reason: 'failed' })
    expect(none.ui.toast).toHaveBeenCalledWith('Select a user first', 'danger')
  })

  it('update, assign roles, disable, enable and delete call their endpoints', async () => {
    const ctx = onUser()
    const input = { name: '张三', departmentId: null, careerId: null, mobile: '', email: '', description: '', status: 1 as const }
    await run('admin.updateUser', ctx, { id: 7, input })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.updateUser, { id: 7, input })
    await run('admin.assignRoles', ctx, { id: 7, roleIds: [2, 3] })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.assignRoles, { id: 7, roleIds: [2, 3] })
    await run('admin.disableUser', ctx, { id: 7 })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.setUserStatus, { id: 7, status: 0 })
    await run('admin.enableUser', ctx, { id: 7 })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.setUserStatus, { id: 7, status: 1 })
    await run('admin.deleteUser', ctx, { id: 7 })
    expect(ctx.ui.confirm).toHaveBeenLastCalledWith('Are you sure to delete the selected content?', 'Deletion is irreversible')
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.deleteUser, { id: 7 })
  })

  it('a declined confirmation changes nothing', async () => {
    const ctx = onUser({ ui: { confirm: () => Promise.resolve(false) } })
    await run('admin.deleteUser', ctx, { id: 7 })
    await run('admin.disableUser', ctx, { id: 7 })
    await run('admin.resetPassword', ctx, { accountId: 9 })
    expect(ctx.api.call).not.toHaveBeenCalled()
  })
})

describe('accounts', () => {
  it('reset password of a user row finds their account, resets it and shows the new password once', async () => {
    const ctx = onUser()
    await expect(run('admin.resetPassword', ctx, { userId: 7 })).resolves.toEqual({ ok: true })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.listAccounts, { userId: 7, limit: 1 })
    expect(ctx.api.call).toHaveBeenCalledWith(endpoints.resetPassword, { accountId: 9 })
    expect(ctx.ui.open).toHaveBeenCalledWith(oneTimePasswordDialog, { ...otp, reset: true })
  })

  it('lock, unlock, disable and enable act on the account a row names', async () => {
    const ctx = testContext({ lang: 'en', path: '/management/account', answer })
    await run('admin.lockAccount', ctx, { accountId: 9 })
    expect(ctx.api.call).toHaveBeenLastCalledWith(endpoints.lockAccount, { accountId: 9, until: undefined })
    await run('admin.unlockAccount', ctx, { accountId: 9 })
    expect(ctx.api.call).toHaveBeenLastCalledWith(endpoints.unlockAccount, { accountId: 9 })
    await run('admin.disableAccount', ctx, { accountId: 9 })
    expect(ctx.api.call).toHaveBeenLastCalledWith(endpoints.setAccountStatus, { accountId: 9, status: 0 })
    await run('admin.enableAccount', ctx, { accountId: 9 })
    expect(ctx.api.call).toHaveBeenLastCalledWith(endpoints.setAccountStatus, { accountId: 9, status: 1 })
    expect(ctx.invalidate).toHaveBeenCalledWith('accounts')
  })

  it("a server refusal ends in the server's message and nothing else", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const ctx = onUser({ answer: () => Promise.reject(new Error('Only a system administrator can do this to a system administrator')) })
    await expect(run('admin.lockAccount', ctx, { accountId: 1 })).resolves.toMatchObject({ ok: false, reason: 'failed' })
    expect(ctx.ui.toast).toHaveBeenCalledWith('Only a system administrator can do this to a system administrator', 'danger')
    expect(ctx.ui.open).not.toHaveBeenCalled()
  })
})

describe('the list endpoint', () => {
  it('sends the sub-department flag as the text the query string carries', () => {
    const input = endpoints.listUsers.input.parse({ departmentId: 3, subDepartments: true, status: 0 })
    expect(endpoints.listUsers.request(input).query).toMatchObject({ departmentId: 3, subDepartments: 'true', status: 0 })
  })
})
