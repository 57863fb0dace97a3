import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { emptyEnvelope } from '../../../contract/envelope.ts'
import { idParams } from '../../../contract/ids.ts'
import {
  accountListQuery,
  accountPageResponse,
  accountResponse,
  createUserBody,
  fileParams,
  lockBody,
  oneTimePasswordResponse,
  pictureDeleteBody,
  pictureLimits,
  picturePathResponse,
  pictureQuery,
  rolesBody,
  statusBody,
  userDetailResponse,
  userInput,
  userListQuery,
  userPageResponse,
  userPaths,
} from '../../../contract/users.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import { pictureMultipart, readPictureUpload } from '../pictureUpload.ts'
import { listAccounts, lockAccount, resetPassword, setAccountStatus, unlockAccount } from '../../services/accounts.ts'
import { ServiceError } from '../../services/errors.ts'
import { deleteAvatar, readPicture, uploadAvatar } from '../../services/picture.ts'
import { assignRoles, createUser, deleteUser, getUser, listUsers, setUserStatus, updateUser } from '../../services/users.ts'
import type { Admin } from '../../services/userRules.ts'

/**
 * People, accounts and the administrator's actions (issue 8 items 1 and 4), and the picture field
 * (SPEC §2, §5, §9), under the back-office prefix api/admin (contract/users.ts userPaths).
 */

const routeOf = (p: string) => '/' + p.replace(/^api\//, '')
/** The session token may travel as `?token=` (plugins/auth.ts tokenOf), so the query schemas keep it. */
const token = { token: z.string().max(256).optional() }

const admin = (req: FastifyRequest): Admin => ({ actor: actor(req), who: auditActor(req) })

const routes: FastifyPluginAsyncZod = async (app) => {
  // Scoped to this plugin: only the picture upload parses multipart bodies here.
  await app.register(multipart, pictureMultipart(pictureLimits.maxBytes))
  const tags = ['users']

  app.get(
    routeOf(userPaths.users),
    {
      config: { action: 'user.list' },
      schema: {
        tags,
        summary: 'People: filtered (name, username or mobile prefix; department, career, status, role), sorted, keyset-paged',
        querystring: userListQuery.extend(token),
        response: { 200: userPageResponse },
      },
    },
    async (req) => ok(req, await listUsers(app.ctx, req.query, req.lang)),
  )

  app.post(
    routeOf(userPaths.users),
    {
      config: { action: 'user.create' },
      schema: {
        tags,
        summary: 'New person with one account and roles; answers a one-time password, shown once, to be changed at first sign-in',
        body: createUserBody,
        response: { 200: oneTimePasswordResponse },
      },
    },
    async (req) => ok(req, await createUser(app.ctx, admin(req), req.body)),
  )

  app.get(
    '/admin/users/:id',
    {
      config: { action: 'user.read' },
      schema: { tags, summary: 'One person', params: idParams, querystring: z.object(token), response: { 200: userDetailResponse } },
    },
    async (req) => ok(req, await getUser(app.ctx, req.params.id, req.lang)),
  )

  app.put(
    '/admin/users/:id',
    {
      config: { action: 'user.update' },
      schema: {
        tags,
        summary: 'Edit name, department, career, mobile, e-mail, description (a status change also needs user.manage)',
        params: idParams,
        body: userInput,
        response: { 200: userDetailResponse },
      },
    },
    async (req) => ok(req, await updateUser(app.ctx, admin(req), req.params.id, req.body, req.lang)),
  )

  app.delete(
    '/admin/users/:id',
    {
      config: { action: 'user.delete' },
      schema: {
        tags,
        summary: 'Delete a person with their accounts; the audit log keeps its rows. Never the last active system administrator',
        params: idParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteUser(app.ctx, admin(req), req.params.id)
      return done(req)
    },
  )

  app.post(
    '/admin/users/:id/status',
    {
      config: { action: 'user.disable' },
      schema: {
        tags,
        summary: 'Disable (0) or enable (1) a person; disabling ends every session of every account at once',
        params: idParams,
        body: statusBody,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await setUserStatus(app.ctx, admin(req), req.params.id, req.body.status)
      return done(req)
    },
  )

  app.put(
    '/admin/users/:id/roles',
    {
      config: { action: 'user.assignRoles' },
      schema: {
        tags,
        summary: "Replace a person's roles; never one's own, never a role granting more than the caller holds",
        params: idParams,
        body: rolesBody,
        response: { 200: userDetailResponse },
      },
    },
    async (req) => ok(req, await assignRoles(app.ctx, admin(req), req.params.id, req.body.roleIds, req.lang)),
  )

  app.get(
    routeOf(userPaths.accounts),
    {
      config: { action: 'user.list' },
      schema: {
        tags,
        summary: 'Accounts: filtered (username prefix, person, status), sorted by username or last sign-in, keyset-paged',
        querystring: accountListQuery.extend(token),
        response: { 200: accountPageResponse },
      },
    },
    async (req) => ok(req, await listAccounts(app.ctx, req.query)),
  )

  app.post(
    '/admin/accounts/:id/reset-password',
    {
      config: { action: 'user.resetPassword' },
      schema: {
        tags,
        summary: 'A new one-time password, shown once; it must be changed at the next sign-in and every session of the account ends',
        params: idParams,
        response: { 200: oneTimePasswordResponse },
      },
    },
    async (req) => ok(req, await resetPassword(app.ctx, admin(req), req.params.id), { key: 'account.passwordReset' }),
  )

  app.post(
    '/admin/accounts/:id/lock',
    {
      config: { action: 'user.lock' },
      schema: {
        tags,
        summary: 'Lock an account until a time (default: until unlocked); its sessions end',
        params: idParams,
        body: lockBody,
        response: { 200: accountResponse },
      },
    },
    async (req) => ok(req, await lockAccount(app.ctx, admin(req), req.params.id, req.body.until)),
  )

  app.post(
    '/admin/accounts/:id/unlock',
    {
      config: { action: 'user.lock' },
      schema: {
        tags,
        summary: "Unlock an account and clear its username's failed sign-in count",
        params: idParams,
        response: { 200: accountResponse },
      },
    },
    async (req) => ok(req, await unlockAccount(app.ctx, admin(req), req.params.id)),
  )

  app.post(
    '/admin/accounts/:id/status',
    {
      config: { action: 'user.disable' },
      schema: {
        tags,
        summary: 'Disable (0) or enable (1) an account; disabling ends its sessions at once (their next call answers 50012)',
        params: idParams,
        body: statusBody,
        response: { 200: accountResponse },
      },
    },
    async (req) => ok(req, await setAccountStatus(app.ctx, admin(req), req.params.id, req.body.status)),
  )

  app.post(
    routeOf(userPaths.pictureUpload),
    {
      config: { action: 'user.avatar' },
      schema: {
        tags,
        summary:
          'Picture field upload (SPEC §2, §5): multipart field `file`, type=3 (user avatar), objectId = the user; jpeg/jpg/png/bmp by content, at most 5 MB; answers data.path',
        querystring: pictureQuery,
        response: { 200: picturePathResponse },
      },
    },
    async (req, reply) => {
      // The rest of an oversize body is not worth reading: the connection ends with the answer.
      const file = await readPictureUpload(req, pictureLimits.maxBytes).catch((err: unknown) => {
        if (err instanceof ServiceError && err.kind === 'tooLarge') void reply.header('connection', 'close')
        throw err
      })
      return ok(req, await uploadAvatar(app.ctx, admin(req), req.query.objectId, file), { key: 'picture.saved' })
    },
  )

  app.post(
    routeOf(userPaths.pictureDelete),
    {
      config: { action: 'user.avatar' },
      schema: { tags, summary: 'Picture field delete: type 3 and objectId', body: pictureDeleteBody, response: { 200: emptyEnvelope } },
    },
    async (req) => {
      await deleteAvatar(app.ctx, admin(req), req.body.objectId)
      return done(req, 'picture.deleted')
    },
  )

  app.get(
    '/admin/files/:hash',
    {
      // Any signed-in user: pictures are shown beside names everywhere (the navbar's own avatar
      // too). Only users' pictures: a research object's picture shares the store, not this door.
      config: { action: 'account.read' },
      schema: {
        tags,
        summary: "A user's picture by its SHA-256 (the path the avatar upload answers); no other stored file",
        params: fileParams,
        querystring: z.object(token),
      },
    },
    async (req, reply) => {
      const { data, type } = await readPicture(app.ctx, req.params.hash)
      return reply
        .header('content-type', type)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(data)
    },
  )
}

export default routes
