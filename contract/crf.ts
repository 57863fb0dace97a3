import { z } from 'zod'
import { idParam, idValue } from './ids.ts'
import { envelope } from './envelope.ts'
import { indicator } from './dictionary.ts'

/**
 * CRFs and subject question groups (SPEC §3 CRF, Subject): one template model, two kinds.
 * A template has versions: the draft is edited; publishing (the SPEC's save…GenerateToDb
 * calls) freezes it, and the next edit starts a new draft copied from it. Data is saved
 * against a version id, so an older version stays readable.
 */
export const templateKinds = ['crf', 'group'] as const
export type TemplateKind = (typeof templateKinds)[number]

/** SPEC §3 collect type ('attribute' for a question group). */
export const collectTypes = ['all', 'object', 'followUp', 'interview', 'biomaterial', 'other'] as const
export type CollectType = (typeof collectTypes)[number]

export const templateInput = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1000).default(''),
  collectType: z.enum(collectTypes).default('all'),
  /** CRFs that must be filled before this one; a cycle is refused. CRFs only. */
  preposeIds: z.array(idValue).max(50).default([]),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
})
export type TemplateInput = z.infer<typeof templateInput>

/** At most this many fields on one form: REDCap projects reach 3,000 (one form instance is one row, DESIGN §9). */
export const maxFormItems = 5000

/** A section title, REDCap's section headers (often HTML) whole included. */
export const maxSectionTitle = 2000

/** One indicator placed in a section. */
export const layoutItem = z.object({
  indicatorId: idValue,
  required: z.boolean().default(false),
})
export type LayoutItem = z.infer<typeof layoutItem>

/** A section; `repeating` makes it a sub form (rows added at entry time). */
export const layoutSection = z.object({
  key: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
  title: z.string().trim().max(maxSectionTitle).default(''),
  repeating: z.boolean().default(false),
  /**
   * The form-wide limit, maxFormItems, is the service's, with its own message
   * (template.tooManyItems), so one section or several over it read the same; the body limit
   * bounds what can arrive at all.
   */
  items: z.array(layoutItem),
})
export type LayoutSection = z.infer<typeof layoutSection>

export const layout = z.object({ sections: z.array(layoutSection).max(100) })
export type Layout = z.infer<typeof layout>

export const versionInfo = z.object({
  id: z.number().int(),
  version: z.number().int(),
  state: z.enum(['draft', 'published']),
  publishedAt: z.string().nullable(),
})
export type VersionInfo = z.infer<typeof versionInfo>

export const template = templateInput.extend({
  id: z.number().int(),
  kind: z.enum(templateKinds),
  /** Number of indicators in the draft (or the latest version when no draft). */
  indexCount: z.number().int(),
  /** The draft being edited, if any, and the latest published version, if any. */
  draft: versionInfo.nullable(),
  published: versionInfo.nullable(),
  updatedAt: z.string(),
})
export type Template = z.infer<typeof template>

/**
 * A field as a version shows it: the indicator's definition, plus the code of the field it depends
 * on. A published version holds these as they were at publication (its snapshot), so later edits
 * to the dictionary never change what version n renders, validates or stores; a draft shows the
 * indicators as they are now.
 */
export const versionField = indicator.extend({ dependentCode: z.string().nullable() })
export type VersionField = z.infer<typeof versionField>

/** A version with its layout and the fields it places, in layout order. */
export const templateVersion = versionInfo.extend({
  templateId: z.number().int(),
  layout,
  indicators: z.array(versionField),
})
export type TemplateVersion = z.infer<typeof templateVersion>

export const templateListQuery = z.object({
  kind: z.enum(templateKinds).default('crf'),
  q: z.string().trim().max(100).optional(),
  collectType: z.enum(collectTypes).optional(),
})

export const templateResponse = envelope(template)
export const templateListResponse = envelope(z.array(template))
export const templateVersionResponse = envelope(templateVersion)

/** SPEC §7: checkHas…GenerateToDb / save…GenerateToDb take the template id in the query. */
export const generateQuery = z.object({ id: idParam })
/** Whether the template has a published version and whether the draft differs from it. */
export const generateState = z.object({ generated: z.boolean(), pending: z.boolean(), version: z.number().int().nullable() })
export const generateStateResponse = envelope(generateState)

/** Template resource paths, plus the SPEC §7 publish calls under api/scientific/form. */
export const templatePaths = {
  list: 'api/templates',
  one: (id: number) => `api/templates/${id}`,
  /** GET the draft (or latest) version with its layout; PUT a new layout into the draft. */
  layout: (id: number) => `api/templates/${id}/layout`,
  versions: (id: number) => `api/templates/${id}/versions`,
  version: (id: number, version: number) => `api/templates/${id}/versions/${version}`,
  checkCrf: 'api/scientific/form/checkHasCrfFormGenerateToDb',
  publishCrf: 'api/scientific/form/saveCrfFormGenerateToDb',
  checkGroup: 'api/scientific/form/checkHasFieldsGenerateToDb',
  publishGroup: 'api/scientific/form/saveFieldsGenerateToDb',
} as const
