import type { Generated, Selectable } from 'kysely'

export interface TemplateTable {
  id: Generated<number>
  kind: string
  name: string
  description: string
  collect_type: string
  status: number
  created_at: string
  updated_at: string
}

export interface TemplatePreposeTable {
  template_id: number
  prepose_id: number
}

export interface TemplateVersionTable {
  id: Generated<number>
  template_id: number
  version: number
  state: string
  /** JSON: [{ key, title, repeating }] in order. */
  sections: string
  created_at: string
  published_at: string | null
  /**
   * JSON { layout, fields } written once, when the version is published: the field definitions
   * as they were then (contract VersionField). Null while a draft.
   */
  snapshot: Generated<string | null>
}

export interface TemplateItemTable {
  version_id: number
  section_key: string
  position: number
  indicator_id: number
  required: number
}

export type TemplateRow = Selectable<TemplateTable>
export type TemplateVersionRow = Selectable<TemplateVersionTable>
export type TemplateItemRow = Selectable<TemplateItemTable>
