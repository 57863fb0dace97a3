import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { catalogEntryResponse, catalogListResponse, catalogNameParams, catalogUpdate } from '../../../contract/catalog.ts'
import { auditActor } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { listCatalogEntries, updateCatalogEntry } from '../../services/catalogAdmin.ts'

/** The menu/route catalog (issue 8 item 3) at the paths of contract/catalog.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['catalog']

  app.get(
    '/admin/catalog',
    {
      config: { action: 'catalog.list' },
      schema: {
        tags,
        summary: 'Menus and screens in catalog order, as administrators arranged them',
        response: { 200: catalogListResponse },
      },
    },
    async (req) => ok(req, await listCatalogEntries(app.ctx)),
  )

  app.put(
    '/admin/catalog/:name',
    {
      config: { action: 'catalog.update' },
      schema: {
        tags,
        summary: 'Change the order, icon, hidden flag or titles of a menu (menu:<id>) or screen; empty titles = built-in',
        params: catalogNameParams,
        body: catalogUpdate,
        response: { 200: catalogEntryResponse },
      },
    },
    async (req) => ok(req, await updateCatalogEntry(app.ctx, auditActor(req), req.params.name, req.body)),
  )
}

export default routes
