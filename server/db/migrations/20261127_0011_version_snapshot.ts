import type { Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/**
 * A published version holds its field definitions (template_version.snapshot), so editing the
 * dictionary never changes what an older version means. Versions published before this column
 * existed get a snapshot of the definitions as they are now: the best record there is. The row
 * mapping is written out here rather than imported, since a migration must not change when the
 * code it would import does.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('template_version').addColumn('snapshot', 'text').execute()

  const versions: { id: number; sections: string }[] = await db
    .selectFrom('template_version')
    .select(['id', 'sections'])
    .where('state', '=', 'published')
    .execute()
  for (const v of versions) {
    const items: { section_key: string; position: number; indicator_id: number; required: number }[] = await db
      .selectFrom('template_item')
      .select(['section_key', 'position', 'indicator_id', 'required'])
      .where('version_id', '=', v.id)
      .orderBy('section_key')
      .orderBy('position')
      .execute()
    const heads = JSON.parse(v.sections) as { key: string; title?: string; repeating?: boolean }[]
    const layout = {
      sections: heads.map((h) => ({
        key: h.key,
        title: h.title ?? '',
        repeating: h.repeating ?? false,
        items: items.filter((i) => i.section_key === h.key).map((i) => ({ indicatorId: i.indicator_id, required: i.required === 1 })),
      })),
    }
    const ids = layout.sections.flatMap((s) => s.items.map((i) => i.indicatorId))
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const rows: any[] = []
    for (let i = 0; i < ids.length; i += 500)
      rows.push(
        ...(await db
          .selectFrom('indicator')
          .selectAll()
          .where('id', 'in', ids.slice(i, i + 500))
          .execute()),
      )
    const depIds = [...new Set(rows.map((r) => r.dependent_field_id).filter((d) => d !== null))]
    const codeOf = new Map<number, string>()
    for (let i = 0; i < depIds.length; i += 500) {
      for (const d of await db
        .selectFrom('indicator')
        .select(['id', 'code'])
        .where('id', 'in', depIds.slice(i, i + 500))
        .execute())
        codeOf.set(d.id, d.code)
    }
    const byId = new Map(rows.map((r) => [r.id, r]))
    const fields = ids.flatMap((id) => {
      const r = byId.get(id)
      if (!r) return []
      return [
        {
          id: r.id,
          code: r.code,
          nameZh: r.name_zh,
          nameEn: r.name_en,
          comment: r.comment,
          type: r.type,
          display: r.display,
          dataType: r.data_type,
          options: JSON.parse(r.options),
          dependentFieldId: r.dependent_field_id,
          dependentValue: r.dependent_value,
          unit: r.unit,
          minimum: r.minimum === null ? null : Number(r.minimum),
          maximum: r.maximum === null ? null : Number(r.maximum),
          dateFormat: r.date_format,
          defaultValue: r.default_value,
          status: r.status === 1 ? 1 : 0,
          indexClass: r.index_class,
          category: r.category,
          diseaseId: r.disease_id,
          inUse: true,
          createdAt: r.created_at,
          updatedAt: r.updated_at,
          dependentCode: r.dependent_field_id === null ? null : (codeOf.get(r.dependent_field_id) ?? null),
        },
      ]
    })
    await db
      .updateTable('template_version')
      .set({ snapshot: JSON.stringify({ layout, fields }) })
      .where('id', '=', v.id)
      .execute()
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('template_version').dropColumn('snapshot').execute()
}
