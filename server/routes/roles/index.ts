import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { emptyEnvelope } from '../../../contract/envelope.ts'
import { idParams } from '../../../contract/ids.ts'
import { roleInput, roleListResponse, roleResponse } from '../../../contract/roles.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import { createRole, deleteRole, getRole, listRoles, updateRole } from '../../services/roles.ts'

/** System roles and their grants (issue 8 item 2) at the paths of contract/roles.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['roles']

  app.get(
    '/admin/roles',
    {
      config: { action: 'role.list' },
      schema: { tags, summary: 'System roles with their grant and holder counts', response: { 200: roleListResponse } },
    },
    async (req) => ok(req, await listRoles(app.ctx)),
  )

  app.get(
    '/admin/roles/:id',
    {
      config: { action: 'role.read' },
      schema: { tags, summary: 'One role with the screens and permissions it grants', params: idParams, response: { 200: roleResponse } },
    },
    async (req) => ok(req, await getRole(app.ctx, req.params.id)),
  )

  app.post(
    '/admin/roles',
    {
      config: { action: 'role.create' },
      schema: {
        tags,
        summary: 'Create a role; a non-superuser grants only what they hold',
        body: roleInput,
        response: { 200: roleResponse },
      },
    },
    async (req) => ok(req, await createRole(app.ctx, actor(req), auditActor(req), req.body)),
  )

  app.put(
    '/admin/roles/:id',
    {
      config: { action: 'role.update' },
      schema: {
        tags,
        summary: 'Edit a role; grants, when given, are replaced as a set (not for the system administrator role)',
        params: idParams,
        body: roleInput,
        response: { 200: roleResponse },
      },
    },
    async (req) => ok(req, await updateRole(app.ctx, actor(req), auditActor(req), req.params.id, req.body)),
  )

  app.delete(
    '/admin/roles/:id',
    {
      config: { action: 'role.delete' },
      schema: {
        tags,
        summary: 'Delete a role (refused for built-in roles and while users hold it)',
        params: idParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteRole(app.ctx, actor(req), auditActor(req), req.params.id)
      return done(req)
    },
  )
}

export default routes
