import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contentDisposition } from '../contentDisposition.ts'
import { auditExportQuery, auditListQuery, auditPageResponse, auditPaths } from '../../../contract/audit.ts'
import { auditActor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { exportAuditLog, listAuditLog } from '../../services/auditLog.ts'

/** The audit log viewer's calls (issue 8 item 6), under the back-office prefix api/admin. */

const routeOf = (p: string) => '/' + p.replace(/^api\//, '')
/** The session token may travel as `?token=` (plugins/auth.ts tokenOf), so the query schemas keep it. */
const token = { token: z.string().optional() }

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['audit']

  app.get(
    routeOf(auditPaths.list),
    {
      config: { action: 'audit.list' },
      schema: {
        tags,
        summary: 'Audit rows newest first, filtered, keyset-paged by an opaque cursor, with the filtered total',
        querystring: auditListQuery.extend(token),
        response: { 200: auditPageResponse },
      },
    },
    async (req) => ok(req, await listAuditLog(app.ctx, req.query)),
  )

  app.get(
    routeOf(auditPaths.export),
    {
      config: { action: 'audit.export' },
      schema: {
        tags,
        summary: 'The filtered audit log as a streamed CSV (UTF-8 with BOM) or xlsx file; the export is itself audited',
        querystring: auditExportQuery.extend(token),
      },
    },
    async (req, reply) => {
      const file = await exportAuditLog(app.ctx, auditActor(req), req.query, req.query.lang ?? req.lang)
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.filename))
        .header('cache-control', 'no-store')
        .send(file.body)
    },
  )
}

export default routes
