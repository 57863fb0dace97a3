import { indicator, type Indicator } from '../../../contract/dictionary.ts'

let next = 1

/** A valid indicator (parsed by the contract schema, so defaults are the real ones). */
export function ind(over: Partial<Indicator> & Pick<Indicator, 'type' | 'display'>): Indicator {
  const id = over.id ?? next++
  return indicator.parse({
    id,
    code: `f${id}`,
    nameZh: `字段${id}`,
    nameEn: `Field ${id}`,
    inUse: false,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    ...over,
  })
}
