import type { AccountListQuery, AccountPage } from '../../../../contract/users.ts'
import { listAccounts as endpoint } from '../../../../contract/userEndpoints.ts'
import { call, type CallOptions } from '../../../api/call.ts'

/** GET api/admin/accounts: one keyset page. */
export function listAccounts(query: Partial<AccountListQuery>, options?: CallOptions<AccountPage>): Promise<AccountPage> {
  return call(endpoint, query, options)
}
