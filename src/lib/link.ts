/** SPEC §9 link test: an address that leaves the app (http:, https:, mailto:, tel:). */
export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/i.test(path)
}

/**
 * A well-formed web address starting with http:// or https:// and naming a host: what the
 * generic message 'valid link starting with HTTP or HTTPS' asks for.
 */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s/?#]+/i.test(value) || /\s/.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}
