import { message, type Lang, type MessageKey } from '../i18n/messages.ts'

export type ErrorKind = 'badRequest' | 'unauthorized' | 'forbidden' | 'notFound' | 'conflict' | 'gone' | 'tooLarge' | 'tooMany'

const status: Record<ErrorKind, number> = {
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  /** Was there once and is no more (a kept file past its retention period). */
  gone: 410,
  tooLarge: 413,
  tooMany: 429,
}

/** A refusal the caller should read: a message key, its parameters and the envelope code. */
export class ServiceError extends Error {
  readonly status: number
  readonly code: number
  constructor(
    readonly kind: ErrorKind,
    readonly key: MessageKey,
    readonly params: readonly (string | number)[] = [],
    code?: number,
    /** What the caller needs to resolve the refusal (a stale save's current values), sent as the envelope's data. */
    readonly data?: unknown,
  ) {
    super(key)
    this.status = status[kind]
    this.code = code ?? this.status
  }

  /** The message in the caller's language; a refusal that names several things overrides it. */
  describe(lang: Lang): string {
    return message(lang, this.key, this.params)
  }
}
