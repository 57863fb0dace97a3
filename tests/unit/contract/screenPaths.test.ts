// contract/screenPaths.ts: one canonical string per screen and parameters (issue 7 item 5).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalPath, paramsOf, parseScreenPath, screenParams, screenPath, type ParamScreen } from '../../../contract/screenPaths.ts'
import { screens } from '../../../contract/screens.ts'

const id = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })
/** Screens whose parameters are all ids; the audit log's text filters have a test of their own below. */
const paramScreens = (Object.keys(screenParams) as ParamScreen[]).filter((n) => n !== 'auditLog')

type Schema = { safeParse(v: unknown): { success: boolean }; unwrap?: () => Schema; options?: readonly string[] }

/** Valid values of one parameter: an id, or one of an enum's options (a tab, a scope). */
const valueOf = (schema: Schema): fc.Arbitrary<number | string> => {
  const options = (schema.unwrap?.() ?? schema).options
  return options ? fc.constantFrom(...options) : id
}

/** Valid parameters of a screen: every key of its schema, optional ones sometimes left out. */
const params = (name: ParamScreen) => {
  const shape: Record<string, Schema> = screenParams[name].shape
  const keys = Object.keys(shape)
  const optional = (k: string) => shape[k]?.safeParse(undefined).success === true
  return fc.record(
    Object.fromEntries(
      keys.map((k) => {
        const value = valueOf(shape[k] as Schema)
        return [k, optional(k) ? fc.option(value, { nil: undefined }) : value]
      }),
    ) as Record<string, fc.Arbitrary<number | string | undefined>>,
  )
}

const screenAndParams = fc.constantFrom(...paramScreens).chain((name) => params(name).map((p) => ({ name, p })))

/** A path with the same meaning written another way: keys shuffled, junk added, ids padded with a zero. */
const rewritten = (path: string) =>
  fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()).map(([reverse, junk, pad]) => {
    const entries = [...new URLSearchParams(path.split('?')[1] ?? '')]
    if (reverse) entries.reverse()
    if (junk) entries.push(['name', 'Baseline & co'])
    const q = new URLSearchParams(entries.map(([k, v]) => [k, pad && /^\d+$/.test(v) ? `0${v}` : v]))
    return `${path.split('?')[0]}${entries.length ? `?${q}` : ''}`
  })

describe('screen paths', () => {
  it('parse(build(screen, params)) gives the screen and the params back', () => {
    fc.assert(
      fc.property(screenAndParams, ({ name, p }) => {
        const path = screenPath(name, p as never)
        const parsed = parseScreenPath(path)
        expect(parsed?.screen.name).toBe(name)
        const defined = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined))
        expect(parsed?.params).toEqual(defined)
        expect(canonicalPath(path)).toBe(path)
      }),
    )
  })

  it('the same record written another way has one canonical path', () => {
    fc.assert(
      fc.property(
        screenAndParams.chain(({ name, p }) => {
          const path = screenPath(name, p as never)
          return rewritten(path).map((other) => ({ path, other }))
        }),
        ({ path, other }) => {
          expect(canonicalPath(other)).toBe(path)
        },
      ),
    )
  })

  it('a CRF opened with the old palette link and from the manager is one path', () => {
    expect(canonicalPath('/dataDictionary/edit-crf-temp?id=4&name=Baseline')).toBe(screenPath('editCrfTemp', { id: 4 }))
    expect(canonicalPath('/dataDictionary/previewCRF?version=2&id=9')).toBe('/dataDictionary/previewCRF?id=9&version=2')
  })

  it('screens without parameters are their plain path; unknown query keys are dropped', () => {
    for (const s of screens.filter((x) => !(x.name in screenParams))) {
      expect(screenPath(s.name as never)).toBe(s.path)
      expect(canonicalPath(`${s.path}?x=1`)).toBe(s.path)
    }
  })

  it('refuses what names no record: a missing, zero, negative, fractional or huge id', () => {
    for (const bad of ['', '?id=', '?id=0', '?id=-3', '?id=1.5', '?id=abc', `?id=${2 ** 60}`]) {
      expect(parseScreenPath(`/dataDictionary/fields${bad}`), bad).toBeNull()
      expect(canonicalPath(`/dataDictionary/fields${bad}`), bad).toBeNull()
    }
    expect(parseScreenPath('/nowhere?id=1')).toBeNull()
    expect(() => screenPath('fields', { id: 0 })).toThrow()
  })

  it('the audit log carries its filters, in declared order, and back', () => {
    const path = screenPath('auditLog', { outcome: 'denied', objectId: 5, objectType: 'indicator', action: 'template.' })
    expect(path).toBe('/management/audit-log?action=template.&objectType=indicator&objectId=5&outcome=denied')
    expect(paramsOf('auditLog', path)).toEqual({ action: 'template.', objectType: 'indicator', objectId: 5, outcome: 'denied' })
    expect(canonicalPath('/management/audit-log?objectId=05&objectType=indicator&x=1')).toBe(
      '/management/audit-log?objectType=indicator&objectId=5',
    )
    expect(parseScreenPath('/management/audit-log?outcome=maybe')).toBeNull()
  })

  it('paramsOf reads a path of the named screen only', () => {
    expect(paramsOf('previewCRF', '/dataDictionary/previewCRF?id=5&version=2')).toEqual({ id: 5, version: 2 })
    expect(paramsOf('previewCRF', '/dataDictionary/edit-crf-temp?id=5')).toBeNull()
  })
})
