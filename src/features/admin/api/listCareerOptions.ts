import { listCareerOptions as endpoint, type CareerOption } from '../../../../contract/userEndpoints.ts'
import { call } from '../../../api/call.ts'

/** GET api/admin/careers (the organization screens' list), for the career picker. */
export function listCareerOptions(signal?: AbortSignal): Promise<CareerOption[]> {
  return call(endpoint, {}, { signal, toast: false })
}
