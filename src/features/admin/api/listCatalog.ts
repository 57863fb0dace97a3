import type { CatalogList } from '../../../../contract/catalog.ts'
import { listCatalog as endpoint } from '../../../../contract/adminEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/admin/catalog: menus and screens in catalog order. */
export function listCatalog(options?: CallOptions<CatalogList>): Promise<CatalogList> {
  return call(endpoint, {}, options)
}
