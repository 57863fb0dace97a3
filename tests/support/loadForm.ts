import { versionField, type TemplateVersion, type VersionField } from '../../contract/crf.ts'
import type { FormMode } from '../../contract/studyData.ts'
import type { LoadForm } from '../../server/services/dataLoader/layout.ts'

/** Published CRFs as data loading sees them, for unit tests: fields by code, forms by their sections. */

let nextField = 1
/** A published text input field coded `code` (names the same), unless `over` says otherwise; ids count up. */
export const fieldCoded = (code: string, over: Partial<VersionField> = {}): VersionField =>
  versionField.parse({
    id: nextField++,
    code,
    nameZh: code,
    nameEn: code,
    type: 'blank',
    display: 'input',
    inUse: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    dependentCode: null,
    ...over,
  })

let nextTemplate = 100
/** A CRF at its published version 1 (version id: template id × 10), its fields optional. */
export function loadForm(name: string, mode: FormMode, sections: { key: string; repeating?: boolean; fields: VersionField[] }[]): LoadForm {
  const templateId = nextTemplate++
  const version: TemplateVersion = {
    id: templateId * 10,
    version: 1,
    state: 'published',
    publishedAt: '2026-01-01T00:00:00.000Z',
    templateId,
    layout: {
      sections: sections.map((s) => ({
        key: s.key,
        title: s.key,
        repeating: s.repeating ?? false,
        items: s.fields.map((f) => ({ indicatorId: f.id, required: false })),
      })),
    },
    indicators: sections.flatMap((s) => s.fields),
  }
  return { templateId, versionId: version.id, name, mode, version }
}
