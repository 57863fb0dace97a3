import { z } from 'zod'
import * as api from '../contract/adminEndpoints.ts'
import { catalogUpdate } from '../contract/catalog.ts'
import { defineCommand, type AnyCommand } from './define.ts'

/**
 * Edits one catalog entry (order, icon, hidden flag, titles; issue 8 item 3). The sidebar,
 * breadcrumb, tabs and palette read the catalog from the permission list, so that reloads too.
 */
export const editCatalogEntry = defineCommand({
  id: 'admin.editCatalogEntry',
  title: 'org.command.editCatalogEntry',
  section: 'admin',
  permission: 'catalog.edit',
  args: catalogUpdate.extend({ name: z.string().min(1).max(64) }),
  run: async (ctx, args) => {
    await ctx.api.call(api.updateCatalogEntry, args)
    ctx.invalidate('catalog')
    ctx.invalidate('permissions')
    ctx.ui.toast(ctx.t('message.saveSuccess'), 'success')
  },
})

export const catalogCommands: AnyCommand[] = [editCatalogEntry]
