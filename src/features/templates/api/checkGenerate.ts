import { z } from 'zod'
import { generateState, generateStateResponse, templatePaths, type TemplateKind } from '../../../../contract/crf.ts'
import { get } from '../../../api/client.ts'

export type GenerateState = z.infer<typeof generateState>

/**
 * SPEC §7 GET api/scientific/form/checkHasCrfFormGenerateToDb?id= (a CRF) or
 * checkHasFieldsGenerateToDb?id= (a question group): published version and pending changes.
 */
export async function checkGenerate(kind: TemplateKind, id: number): Promise<GenerateState> {
  const path = kind === 'crf' ? templatePaths.checkCrf : templatePaths.checkGroup
  const res = await get<GenerateState>(path, { id }, { schema: generateStateResponse })
  if (!res.data) throw new Error(`the publication state of template ${id} came without data`)
  return res.data
}
