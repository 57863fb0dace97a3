/**
 * Placeholder substitution of SPEC §9 (the client's dictionaries and the server's messages): `{0}`, `{1}` … are replaced by the values of an array,
 * `{name}` by the property of a record, and `{0|one|other}` by one of two words by the count
 * (English plurals). A placeholder without a value is left as written, so a missing argument is
 * visible instead of silently vanishing.
 */
export type PlaceholderValue = string | number | boolean | bigint | null | undefined
export type PlaceholderParams = readonly PlaceholderValue[] | Readonly<Record<string, PlaceholderValue>>

const placeholder = /\{(\w+)\}/g
/** `{0|field|fields}`: the first word when the value is 1, the second otherwise (English counts). */
const plural = /\{(\w+)\|([^|{}]*)\|([^|{}]*)\}/g

export function substitute(template: string, params?: PlaceholderParams): string {
  if (params === undefined) return template
  const valueOf = (name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? (params as Record<string, PlaceholderValue>)[name] : undefined
  return template
    .replace(plural, (whole, name: string, one: string, other: string) => {
      const value = valueOf(name)
      return value === undefined || value === null ? whole : Number(value) === 1 ? one : other
    })
    .replace(placeholder, (whole, name: string) => {
      const value = valueOf(name)
      return value === undefined || value === null ? whole : String(value)
    })
}

/** The placeholder names a template uses, in order of first appearance (`'{1} of {0}'` → ['1', '0']). */
export function placeholdersOf(template: string): string[] {
  const names: string[] = []
  for (const match of template.matchAll(placeholder)) {
    const name = match[1] as string
    if (!names.includes(name)) names.push(name)
  }
  return names
}
