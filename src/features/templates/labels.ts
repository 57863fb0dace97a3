import type { TemplateKind, VersionInfo } from '../../../contract/crf.ts'

type T = (key: string, params?: (string | number)[]) => string

/** 'v2 draft · v1 published', or '—' when neither. */
export function versionText(t: T, draft: VersionInfo | null, published: VersionInfo | null): string {
  const parts: string[] = []
  if (draft) parts.push(t('template.version.draft', [draft.version]))
  if (published) parts.push(t('template.version.published', [published.version]))
  return parts.length > 0 ? parts.join(' · ') : '—'
}

export const kindTitle = (t: T, kind: TemplateKind) => t(kind === 'crf' ? 'template.kind.crf' : 'template.kind.group')
