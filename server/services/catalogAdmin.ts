import type { CatalogEntry, CatalogList, CatalogUpdate } from '../../contract/catalog.ts'
import { findCatalogEntry, updateCatalogRow } from '../db/repositories/catalog.ts'
import { catalog } from './access.ts'
import { audit, type Actor } from './audit.ts'
import type { ServiceContext } from './context.ts'
import { ServiceError } from './errors.ts'

/** The menu/route catalog as administrators arrange it (issue 8 item 3): order, icon, hidden flag, titles. */

export async function listCatalogEntries(ctx: ServiceContext): Promise<CatalogList> {
  return { items: await catalog(ctx.db) }
}

export async function updateCatalogEntry(ctx: ServiceContext, actor: Actor, name: string, u: CatalogUpdate): Promise<CatalogEntry> {
  const now = ctx.now()
  return ctx.db.transaction().execute(async (trx) => {
    const before = await findCatalogEntry(trx, name)
    if (!before) throw new ServiceError('notFound', 'catalog.notFound', [name])
    await updateCatalogRow(
      trx,
      name,
      {
        ...(u.sort === undefined ? {} : { sort: u.sort }),
        ...(u.icon === undefined ? {} : { icon: u.icon }),
        ...(u.hidden === undefined ? {} : { hidden: u.hidden ? 1 : 0 }),
        ...(u.titleZh === undefined ? {} : { title_zh: u.titleZh }),
        ...(u.titleEn === undefined ? {} : { title_en: u.titleEn }),
      },
      now.toISOString(),
    )
    await audit(trx, actor, 'catalog.update', 'ok', now, { name, ...u })
    const entry = (await catalog(trx)).find((e) => e.name === name)
    if (!entry) throw new ServiceError('notFound', 'catalog.notFound', [name])
    return entry
  })
}
