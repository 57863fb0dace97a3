/** The template calls commands make (contract/crf.ts holds the schemas and paths). */
import { z } from 'zod'
import { endpoint, noData } from './endpoint.ts'
import { collectTypes, generateState, template, templateKinds, templatePaths } from './crf.ts'

const id = z.number().int().positive()

export const getTemplate = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: template,
  request: ({ id }) => ({ path: templatePaths.one(id) }),
})

export const createTemplate = endpoint({
  method: 'POST',
  input: z.object({
    kind: z.enum(templateKinds),
    name: z.string().trim().min(1).max(100),
    description: z.string().max(1000),
    collectType: z.enum(collectTypes),
  }),
  output: template,
  request: (input) => ({ path: templatePaths.list, body: input }),
})

export const deleteTemplate = endpoint({
  method: 'DELETE',
  input: z.object({ id }),
  output: noData,
  request: ({ id }) => ({ path: templatePaths.one(id) }),
})

const generatePaths = {
  crf: { check: templatePaths.checkCrf, publish: templatePaths.publishCrf },
  group: { check: templatePaths.checkGroup, publish: templatePaths.publishGroup },
} as const

/** SPEC §7 checkHas…GenerateToDb */
export const checkGenerate = endpoint({
  method: 'GET',
  input: z.object({ kind: z.enum(templateKinds), id }),
  output: generateState,
  request: ({ kind, id }) => ({ path: generatePaths[kind].check, query: { id } }),
})

/** SPEC §7 save…GenerateToDb */
export const publish = endpoint({
  method: 'POST',
  input: z.object({ kind: z.enum(templateKinds), id }),
  output: generateState,
  request: ({ kind, id }) => ({ path: generatePaths[kind].publish, query: { id } }),
})
