import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { envelope } from '../../../contract/envelope.ts'
import { idParam } from '../../../contract/ids.ts'
import {
  displayField,
  displayFieldInfo,
  headerColumn,
  neighbours,
  saveDisplayFieldInput,
  studyQuery,
  subjectListPaths,
  subjectListQuery,
  subjectPage,
} from '../../../contract/subjectList.ts'
import { actor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { ServiceError } from '../../services/errors.ts'
import {
  displayFieldInfo as readDisplayFieldInfo,
  displayFieldList,
  headerList,
  neighboursOf,
  pageList,
  saveDisplayFields,
} from '../../services/subjectList.ts'

const path = (p: string) => `/${p.slice('api/'.length)}`

/** The research-object list (SPEC §7 getHeaderList, pageList, display fields) and next / previous subject. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    path(subjectListPaths.headerList),
    {
      config: { action: 'subject.list' },
      schema: {
        tags: ['subjectList'],
        summary: "The list's columns: the fixed ones (no group for blinded callers) and the caller's chosen indicators",
        querystring: studyQuery,
        response: { 200: envelope(z.array(headerColumn)) },
      },
    },
    async (req) => ok(req, await headerList(app.ctx, actor(req), req.query.studyId)),
  )

  app.get(
    path(subjectListPaths.pageList),
    {
      config: { action: 'subject.list' },
      schema: {
        tags: ['subjectList'],
        summary: "One keyset page of the caller's research objects: sort on any shown column, filters per column, the total",
        querystring: subjectListQuery,
        response: { 200: envelope(subjectPage) },
      },
    },
    async (req) => ok(req, await pageList(app.ctx, actor(req), req.lang, req.query)),
  )

  app.get(
    path(subjectListPaths.displayFields),
    {
      config: { action: 'subject.list' },
      schema: {
        tags: ['subjectList'],
        summary: "The indicators that may be list columns (plain fields of the pinned single-instance CRFs), with the caller's choice",
        querystring: studyQuery,
        response: { 200: envelope(z.array(displayField)) },
      },
    },
    async (req) => ok(req, await displayFieldList(app.ctx, actor(req), req.query.studyId)),
  )

  app.get(
    path(subjectListPaths.displayFieldInfo),
    {
      config: { action: 'subject.list' },
      schema: {
        tags: ['subjectList'],
        summary: "The caller's chosen indicator columns of the project, in order",
        querystring: studyQuery,
        response: { 200: envelope(displayFieldInfo) },
      },
    },
    async (req) => ok(req, await readDisplayFieldInfo(app.ctx, actor(req), req.query.studyId)),
  )

  app.post(
    path(subjectListPaths.saveDisplayFields),
    {
      config: { action: 'subject.list' },
      schema: {
        tags: ['subjectList'],
        summary: "Saves the caller's indicator columns of the project (each gets its sort index)",
        body: saveDisplayFieldInput,
        response: { 200: envelope(displayFieldInfo) },
      },
    },
    async (req) => ok(req, await saveDisplayFields(app.ctx, actor(req), req.body)),
  )

  app.get(
    '/projects/:id/subjects/:subjectId/neighbours',
    {
      config: { action: 'subject.list' },
      schema: {
        tags: ['subjectList'],
        summary: 'The research objects before and after one in the list order of the query (next / previous subject)',
        params: z.object({ id: idParam, subjectId: idParam }),
        querystring: subjectListQuery.omit({ after: true, limit: true }),
        response: { 200: envelope(neighbours) },
      },
    },
    async (req) => {
      // The guard decided on studyId: the path must name the same project.
      if (req.params.id !== req.query.studyId) throw new ServiceError('badRequest', 'field.invalid', ['studyId'])
      return ok(req, await neighboursOf(app.ctx, actor(req), { ...req.query, objectId: req.params.subjectId }))
    },
  )
}

export default routes
