import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

interface Row {
  id: number
  type: string
  options: string
  dependent_field_id: number | null
  dependent_value: string | null
  default_value: string | null
  comment: string
}

const batch = 500
const columns = ['id', 'type', 'options', 'dependent_field_id', 'dependent_value', 'default_value', 'comment'] as const

/** The codes a REDCap import noted in the comment's last line, '@redcap {…}', when they fit. */
function redcapCodes(comment: string, n: number): string[] | null {
  const at = comment.lastIndexOf('@redcap ')
  if (at < 0 || (at > 0 && comment[at - 1] !== '\n')) return null
  let meta: unknown
  try {
    meta = JSON.parse(comment.slice(at + '@redcap '.length))
  } catch {
    return null
  }
  if (typeof meta !== 'object' || meta === null) return null
  const { codes, type } = meta as { codes?: unknown; type?: unknown }
  if (Array.isArray(codes) && codes.length === n && codes.every((c) => typeof c === 'string') && new Set(codes).size === n)
    return codes as string[]
  if ((type === 'yesno' || type === 'truefalse') && n === 2) return ['1', '0']
  return null
}

/**
 * A choice was one text; it becomes `{ code, labelZh, labelEn }` with codes '1', '2', … in order
 * and the old text as both labels, so stored values can name a code whose meaning never moves.
 * A REDCap import kept its own codes in the comment's `@redcap` line (codes, or yesno/truefalse,
 * whose codes are 1 and 0): those become the codes.
 * Defaults and dependent values that named an option text now name its code. Rows already in the
 * new shape are left alone, so the step is safe to repeat.
 */
export async function up(db: AnyDb): Promise<void> {
  const codesOf = new Map<number, Map<string, string>>()
  let after = 0
  for (;;) {
    const rows: Row[] = await db
      .selectFrom('indicator')
      .select([...columns])
      .where('id', '>', after)
      .orderBy('id')
      .limit(batch)
      .execute()
    if (rows.length === 0) break
    for (const r of rows) {
      const old = JSON.parse(r.options) as unknown[]
      if (!old.every((o) => typeof o === 'string')) continue
      const kept = redcapCodes(r.comment, old.length)
      codesOf.set(r.id, new Map((old as string[]).map((text, i) => [text, kept?.[i] ?? String(i + 1)])))
    }
    after = rows[rows.length - 1]?.id ?? after
  }

  after = 0
  for (;;) {
    const rows: Row[] = await db
      .selectFrom('indicator')
      .select([...columns])
      .where('id', '>', after)
      .orderBy('id')
      .limit(batch)
      .execute()
    if (rows.length === 0) break
    for (const r of rows) {
      const own = codesOf.get(r.id)
      const dep = r.dependent_field_id === null ? undefined : codesOf.get(r.dependent_field_id)
      const set: Partial<Pick<Row, 'options' | 'default_value' | 'dependent_value'>> = {}
      if (own && own.size > 0) {
        set.options = JSON.stringify([...own].map(([text, code]) => ({ code, labelZh: text, labelEn: text })))
        if (r.default_value !== null && r.default_value !== '') {
          const parts = r.type === 'multiple' ? r.default_value.split('|').filter((x) => x !== '') : [r.default_value]
          const codes = parts.map((p) => own.get(p))
          // A default that named no option was never valid: dropped rather than kept meaning nothing.
          set.default_value = codes.every((c) => c !== undefined) ? codes.join('|') : null
        }
      }
      if (dep && dep.size > 0 && r.dependent_value !== null) set.dependent_value = dep.get(r.dependent_value) ?? r.dependent_value
      if (Object.keys(set).length > 0) await db.updateTable('indicator').set(set).where('id', '=', r.id).execute()
    }
    after = rows[rows.length - 1]?.id ?? after
  }
}

/** Back to plain texts: the Chinese label (or the English one) of each choice. */
export async function down(db: AnyDb): Promise<void> {
  const rows: Row[] = await db
    .selectFrom('indicator')
    .select([...columns])
    .execute()
  const textOf = new Map<number, Map<string, string>>()
  for (const r of rows) {
    const list = JSON.parse(r.options) as { code: string; labelZh: string; labelEn: string }[]
    textOf.set(r.id, new Map(list.map((c) => [c.code, c.labelZh || c.labelEn])))
  }
  for (const r of rows) {
    const own = textOf.get(r.id) ?? new Map<string, string>()
    const dep = r.dependent_field_id === null ? undefined : textOf.get(r.dependent_field_id)
    const toText = (code: string, m: Map<string, string>) => m.get(code) ?? code
    await db
      .updateTable('indicator')
      .set({
        options: JSON.stringify([...own.values()]),
        default_value:
          r.default_value === null || own.size === 0
            ? r.default_value
            : r.default_value
                .split('|')
                .map((c) => toText(c, own))
                .join('|'),
        dependent_value: r.dependent_value === null || !dep || dep.size === 0 ? r.dependent_value : toText(r.dependent_value, dep),
      })
      .where('id', '=', r.id)
      .execute()
  }
}
