/** The template calls the client makes (contract/crf.ts holds the schemas and paths). */
import { z } from 'zod'
import { endpoint, noData } from './endpoint.ts'
import {
  collectTypes,
  generateState,
  layout,
  template,
  templateInput,
  templateKinds,
  templatePaths,
  templateVersion,
  versionInfo,
} from './crf.ts'

const id = z.number().int().positive()

export const getTemplate = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: template,
  request: ({ id }) => ({ path: templatePaths.one(id) }),
})

/** A new CRF or question group with an empty draft version 1. */
export const createTemplate = endpoint({
  method: 'POST',
  input: templateInput.extend({ kind: z.enum(templateKinds) }),
  output: template,
  request: (input) => ({ path: templatePaths.list, body: input }),
})

export const listTemplates = endpoint({
  method: 'GET',
  input: z.object({ kind: z.enum(templateKinds), q: z.string().optional(), collectType: z.enum(collectTypes).optional() }),
  output: z.array(template),
  request: (query) => ({ path: templatePaths.list, query }),
})

/** Name, description, collect type, prepose CRFs and status; the kind never changes. */
export const updateTemplate = endpoint({
  method: 'PUT',
  input: z.object({ id, input: templateInput }),
  output: template,
  request: ({ id, input }) => ({ path: templatePaths.one(id), body: input }),
})

/** The draft (else the latest published version) with its layout and field definitions. */
export const getLayout = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: templateVersion,
  request: ({ id }) => ({ path: templatePaths.layout(id) }),
})

/** Writes the layout into the draft (a new draft after a publication). */
export const saveLayout = endpoint({
  method: 'PUT',
  input: z.object({ id, layout }),
  output: templateVersion,
  request: ({ id, layout }) => ({ path: templatePaths.layout(id), body: layout }),
})

export const listVersions = endpoint({
  method: 'GET',
  input: z.object({ id }),
  output: z.array(versionInfo),
  request: ({ id }) => ({ path: templatePaths.versions(id) }),
})

/** One version, published (its snapshot) or draft. */
export const getVersion = endpoint({
  method: 'GET',
  input: z.object({ id, version: id }),
  output: templateVersion,
  request: ({ id, version }) => ({ path: templatePaths.version(id, version) }),
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
