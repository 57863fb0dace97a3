import { describe, expect, it } from 'vitest'
import { isExternal, isHttpUrl } from '../../../src/lib/link.ts'

describe('isExternal (SPEC §9 link test)', () => {
  it.each(['http://a.b', 'https://a.b/c', 'mailto:x@y.z', 'tel:+8613800138000', 'HTTPS://A.B', 'http:relative'])('accepts %s', (v) => {
    expect(isExternal(v)).toBe(true)
  })
  it.each([
    '/project/multi-list',
    'project',
    '',
    'ftp://a.b',
    'javascript:void(0)',
    ' http://a.b',
    'httpx://a',
    'www.example.org',
    '//cdn.example.org',
  ])('refuses %j', (v) => {
    expect(isExternal(v)).toBe(false)
  })
})

describe('isHttpUrl', () => {
  it('needs http(s)://host', () => {
    expect(isHttpUrl('http://example.org')).toBe(true)
    expect(isHttpUrl('https://example.org:8443/a/b?c=1#d')).toBe(true)
    expect(isHttpUrl('https://localhost')).toBe(true)
    for (const v of ['http://', 'https:///path', 'http:example.org', 'mailto:a@b.c', 'https://exa mple.org', 'example.org'])
      expect(isHttpUrl(v)).toBe(false)
  })
})
