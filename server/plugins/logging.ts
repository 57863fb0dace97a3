import type { FastifyRequest } from 'fastify'

/** Query parameters whose values never reach a log: the session token (SPEC's `?token=`). */
const secretParams = new Set(['token'])

function decodedKey(pair: string): string {
  const key = pair.split('=', 1)[0] ?? ''
  try {
    return decodeURIComponent(key.replace(/\+/g, ' ')).toLowerCase()
  } catch {
    return key.toLowerCase()
  }
}

/** The URL with the value of every secret query parameter replaced, however its name is encoded. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => (secretParams.has(decodedKey(pair)) ? `${pair.split('=', 1)[0]}=[redacted]` : pair))
  return `${url.slice(0, q)}?${pairs.join('&')}`
}

/** The logger's request line: Fastify's default fields, the URL redacted. */
function req(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }
}

export interface LogDestination {
  write(line: string): void
}

/** Fastify logger options: pino to stdout, or to `stream` (tests read it). */
export function loggerOptions(stream?: LogDestination) {
  return { serializers: { req }, ...(stream ? { stream } : {}) }
}
