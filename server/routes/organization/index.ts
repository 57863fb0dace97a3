import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { emptyEnvelope } from '../../../contract/envelope.ts'
import { idParams } from '../../../contract/ids.ts'
import {
  careerInput,
  careerListQuery,
  careerPageResponse,
  careerResponse,
  departmentCreate,
  departmentListResponse,
  departmentMove,
  departmentRename,
  departmentResponse,
} from '../../../contract/organization.ts'
import { auditActor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import { createCareer, deleteCareer, listCareers, updateCareer } from '../../services/careers.ts'
import { createDepartment, deleteDepartment, listDepartments, moveDepartment, renameDepartment } from '../../services/departments.ts'

/** Departments and careers (issue 8 item 1) at the resource paths of contract/organization.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['organization']

  app.get(
    '/admin/departments',
    {
      config: { action: 'department.list' },
      schema: {
        tags,
        summary: 'Every department as a flat list (nest by parentId), with its user count',
        response: { 200: departmentListResponse },
      },
    },
    async (req) => ok(req, await listDepartments(app.ctx)),
  )

  app.post(
    '/admin/departments',
    {
      config: { action: 'department.create' },
      schema: {
        tags,
        summary: 'Create a department (name unique among its siblings)',
        body: departmentCreate,
        response: { 200: departmentResponse },
      },
    },
    async (req) => ok(req, await createDepartment(app.ctx, auditActor(req), req.body)),
  )

  app.put(
    '/admin/departments/:id',
    {
      config: { action: 'department.update' },
      schema: { tags, summary: 'Rename a department', params: idParams, body: departmentRename, response: { 200: departmentResponse } },
    },
    async (req) => ok(req, await renameDepartment(app.ctx, auditActor(req), req.params.id, req.body.name)),
  )

  app.put(
    '/admin/departments/:id/move',
    {
      config: { action: 'department.update' },
      schema: {
        tags,
        summary: 'Move a department under another parent and/or to a position (a cycle is refused)',
        params: idParams,
        body: departmentMove,
        response: { 200: departmentResponse },
      },
    },
    async (req) => ok(req, await moveDepartment(app.ctx, auditActor(req), req.params.id, req.body)),
  )

  app.delete(
    '/admin/departments/:id',
    {
      config: { action: 'department.delete' },
      schema: {
        tags,
        summary: 'Delete a department (refused while users are in it or it has sub-departments)',
        params: idParams,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteDepartment(app.ctx, auditActor(req), req.params.id)
      return done(req)
    },
  )

  app.get(
    '/admin/careers',
    {
      config: { action: 'career.list' },
      schema: {
        tags,
        summary: 'Careers, filtered by name prefix, sorted and keyset-paged',
        // The session token may travel as `?token=` (plugins/auth.ts).
        querystring: careerListQuery.extend({ token: z.string().optional() }),
        response: { 200: careerPageResponse },
      },
    },
    async (req) => ok(req, await listCareers(app.ctx, req.query)),
  )

  app.post(
    '/admin/careers',
    {
      config: { action: 'career.create' },
      schema: { tags, summary: 'Create a career (name unique whatever its case)', body: careerInput, response: { 200: careerResponse } },
    },
    async (req) => ok(req, await createCareer(app.ctx, auditActor(req), req.body)),
  )

  app.put(
    '/admin/careers/:id',
    {
      config: { action: 'career.update' },
      schema: { tags, summary: 'Edit a career', params: idParams, body: careerInput, response: { 200: careerResponse } },
    },
    async (req) => ok(req, await updateCareer(app.ctx, auditActor(req), req.params.id, req.body)),
  )

  app.delete(
    '/admin/careers/:id',
    {
      config: { action: 'career.delete' },
      schema: { tags, summary: 'Delete a career (refused while users hold it)', params: idParams, response: { 200: emptyEnvelope } },
    },
    async (req) => {
      await deleteCareer(app.ctx, auditActor(req), req.params.id)
      return done(req)
    },
  )
}

export default routes
