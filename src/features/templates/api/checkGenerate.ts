import { z } from 'zod'
import type { generateState, TemplateKind } from '../../../../contract/crf.ts'
import { checkGenerate as endpoint } from '../../../../contract/templateEndpoints.ts'
import { call } from '../../../api/call.ts'

export type GenerateState = z.infer<typeof generateState>

/**
 * SPEC §7 GET api/scientific/form/checkHasCrfFormGenerateToDb?id= (a CRF) or
 * checkHasFieldsGenerateToDb?id= (a question group): published version and pending changes.
 */
export function checkGenerate(kind: TemplateKind, id: number): Promise<GenerateState> {
  return call(endpoint, { kind, id })
}
