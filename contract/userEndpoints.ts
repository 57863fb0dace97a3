/** The people and account calls the client makes (contract/users.ts holds the schemas and paths). */
import { z } from 'zod'
import { endpoint, noData } from './endpoint.ts'
import {
  accountListQuery,
  accountPage,
  accountRow,
  createUserBody,
  lockBody,
  oneTimePassword,
  pictureDeleteBody,
  rolesBody,
  statusValue,
  userDetail,
  userInput,
  userListQuery,
  userPage,
  userPaths,
} from './users.ts'

const id = z.number().int().positive()

/** One keyset page of people; pass the last page's `next` as `after`. */
export const listUsers = endpoint({
  method: 'GET',
  // The query string carries the flag as text; the client holds a boolean.
  input: userListQuery.partial().extend({ subDepartments: z.boolean().optional() }),
  output: userPage,
  request: ({ subDepartments, ...query }) => ({
    path: userPaths.users,
    query: { ...query, subDepartments: subDepartments === undefined ? undefined : String(subDepartments) },
  }),
})

export const getUser = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: userDetail,
  request: ({ id }) => ({ path: userPaths.user(id) }),
})

/** Answers the one-time password, shown once. */
export const createUser = endpoint({
  method: 'POST',
  input: createUserBody,
  output: oneTimePassword,
  request: (body) => ({ path: userPaths.users, body }),
})

export const updateUser = endpoint({
  method: 'PUT',
  input: z.object({ id, input: userInput }),
  output: userDetail,
  request: ({ id, input }) => ({ path: userPaths.user(id), body: input }),
})

export const deleteUser = endpoint({
  method: 'DELETE',
  input: z.object({ id }),
  output: noData,
  request: ({ id }) => ({ path: userPaths.user(id) }),
})

export const setUserStatus = endpoint({
  method: 'POST',
  input: z.object({ id, status: statusValue }),
  output: noData,
  request: ({ id, status }) => ({ path: userPaths.userStatus(id), body: { status } }),
})

export const assignRoles = endpoint({
  method: 'PUT',
  input: rolesBody.extend({ id }),
  output: userDetail,
  request: ({ id, roleIds }) => ({ path: userPaths.userRoles(id), body: { roleIds } }),
})

export const listAccounts = endpoint({
  method: 'GET',
  input: accountListQuery.partial(),
  output: accountPage,
  request: (query) => ({ path: userPaths.accounts, query }),
})

export const resetPassword = endpoint({
  method: 'POST',
  input: z.object({ accountId: id }),
  output: oneTimePassword,
  request: ({ accountId }) => ({ path: userPaths.resetPassword(accountId) }),
})

export const lockAccount = endpoint({
  method: 'POST',
  input: lockBody.extend({ accountId: id }),
  output: accountRow,
  request: ({ accountId, ...body }) => ({ path: userPaths.lock(accountId), body }),
})

export const unlockAccount = endpoint({
  method: 'POST',
  input: z.object({ accountId: id }),
  output: accountRow,
  request: ({ accountId }) => ({ path: userPaths.unlock(accountId) }),
})

export const setAccountStatus = endpoint({
  method: 'POST',
  input: z.object({ accountId: id, status: statusValue }),
  output: accountRow,
  request: ({ accountId, status }) => ({ path: userPaths.accountStatus(accountId), body: { status } }),
})

/** The picture field's delete (SPEC §2): type 3 and objectId. */
export const deletePicture = endpoint({
  method: 'POST',
  input: pictureDeleteBody,
  output: noData,
  request: (body) => ({ path: userPaths.pictureDelete, body }),
})
