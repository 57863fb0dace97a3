/**
 * The one HTTP client of the web app (SPEC §7, §8; DESIGN §3).
 *
 * Every call goes through `request` (or `get` / `post`), which resolves with the envelope when
 * its code is 0 and otherwise rejects with an `ApiError` after the SPEC §8 effects:
 *
 * - code ≠ 0 in a 2xx answer: error toast with `msg` for 5000 ms;
 * - code 401: forced logout (session cleared) and page reload;
 * - codes 50008 / 50012 / 50014: the re-login confirmation, one at a time; confirming clears the
 *   session and reloads;
 * - non-2xx answers, time-outs, network failures, bodies that are not a JSON envelope: error toast
 *   with the error message (the server's `msg` when the body is an envelope) for 5000 ms, except
 *   on HTTP 401 (no toast, but the body code still decides between forced logout and re-login).
 *
 * The effects (toast, dialog, logout, reload, translation) are injected with `configureApi`, so
 * the module has no React and no DOM of its own and is tested against a real HTTP server.
 */
import { ofetch, type $Fetch } from 'ofetch'
import type { ZodType } from 'zod'
import { codes } from '../../contract/codes.ts'
import type { Envelope } from '../../contract/envelope.ts'
import { clearSession, getToken } from '../state/session.ts'

export type { Envelope }

/** SPEC §7 */
export const TOKEN_HEADER = 'Kr-D-Token'
/** SPEC §9: request time-out. */
export const DEFAULT_TIMEOUT_MS = 50_000
/** SPEC §9: error toasts stay this long. */
export const ERROR_TOAST_MS = 5_000

/** SPEC §8: illegal token, token ended elsewhere, token expired. */
export const reloginCodes: ReadonlySet<number> = new Set<number>([codes.illegalToken, codes.tokenEndedElsewhere, codes.tokenExpired])

/**
 * i18n keys the client asks `translate` for (messages of failures that carry no server text).
 * `{0}` is replaced by the client. A missing key (empty answer or the key itself) falls back to
 * the English text here.
 */
export const apiMessageKeys = {
  network: 'request.network',
  timeout: 'request.timeout',
  http: 'request.failed',
  badResponse: 'request.badResponse',
  badInput: 'request.badInput',
  badInputWhole: 'request.badInputWhole',
  unknown: 'message.unknownError',
} as const
type MessageName = keyof typeof apiMessageKeys

const fallbackMessages: Record<MessageName, string> = {
  network: 'Network Error: the server cannot be reached',
  timeout: 'Request timed out after {0} ms',
  http: 'Request failed with status code {0}',
  badResponse: 'The server sent an invalid response',
  badInput: 'The request was not sent: {0} is not valid',
  badInputWhole: 'The request was not sent: its input is not valid',
  unknown: 'Error',
}

/** SPEC §8 texts of the re-login dialog, for an app that has no dictionary entry yet. */
export const reloginTexts = {
  title: '确定登出',
  message: '你已被登出，可以取消继续留在该页面，或者重新登录',
  confirm: '重新登录',
  cancel: '取消',
} as const

export interface ToastOptions {
  /** milliseconds */
  timeout: number
}

/** What the app provides: the visible effects of a failed call. */
export interface ApiEffects {
  /** Show an error toast. */
  toast(message: string, options: ToastOptions): void
  /** Show the re-login dialog (SPEC §8 texts); true when the user chose to sign in again. */
  confirmRelogin(): Promise<boolean>
  /** Clear the session (token, system id, roles, cookie) and whatever the app keeps with it. */
  forceLogout(): void
  /** Reload the page. */
  reload(): void
  /** Translate an i18n key (see `apiMessageKeys`). */
  translate?(key: string): string
}

export interface ApiConfig extends ApiEffects {
  /** Base address of the API; default '/' (the same origin serves API and app). */
  baseURL?: string
  /** Request time-out in ms; default 50000 (SPEC §9). */
  timeout?: number
  /** The app's language, sent as Accept-Language so server messages come in it (DESIGN §3). */
  language?(): string | undefined
}

const defaultEffects: ApiConfig = {
  toast: (message) => console.error(`[api] ${message}`),
  confirmRelogin: async () =>
    typeof globalThis.confirm === 'function' ? globalThis.confirm(`${reloginTexts.title}\n${reloginTexts.message}`) : false,
  forceLogout: () => clearSession(),
  reload: () => {
    if (typeof location !== 'undefined') location.reload()
  },
}

function createInstance(baseURL: string, timeout: number): $Fetch {
  return ofetch.create({
    baseURL,
    timeout,
    // One try: a GET must not silently double its time-out, and a POST is never repeated.
    retry: false,
    onRequest({ options }) {
      const token = getToken()
      if (token) options.headers.set(TOKEN_HEADER, token)
      const lang = config.language?.()
      if (lang) options.headers.set('Accept-Language', lang)
    },
  })
}

let config: ApiConfig = defaultEffects
let baseURL = '/'
let timeoutMs = DEFAULT_TIMEOUT_MS
let instance: $Fetch = createInstance(baseURL, timeoutMs)
let reloginOpen = false

/** Set once by the app at start (tests call it before each case); unspecified settings take their defaults. */
export function configureApi(next: ApiConfig): void {
  config = next
  baseURL = next.baseURL ?? '/'
  timeoutMs = next.timeout ?? DEFAULT_TIMEOUT_MS
  instance = createInstance(baseURL, timeoutMs)
  reloginOpen = false
}

/** Reload through the configured effect (logout uses it). */
export function reloadPage(): void {
  safely('reload', () => config.reload())
}

// ---------------------------------------------------------------------------------------------
// Errors

export type ApiErrorKind =
  /** the server answered an envelope with a non-zero code */
  | 'code'
  /** a non-2xx answer whose body is not an envelope */
  | 'http'
  /** no answer within the time-out */
  | 'timeout'
  /** the server could not be reached */
  | 'network'
  /** a 2xx answer that is not a JSON envelope (or not the expected one) */
  | 'invalid'
  /** the caller aborted through its signal */
  | 'aborted'
  /** the input does not fit the endpoint's schema: nothing was sent */
  | 'input'

/** Every rejection of the client. */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  readonly kind: ApiErrorKind
  readonly method: string
  /** The address called, with any token in the query hidden. */
  readonly url: string
  /** HTTP status, when an answer came. */
  readonly status: number | undefined
  /** The envelope, when the body was one (code, msg, boolResult). */
  readonly envelope: Envelope<unknown> | undefined

  constructor(init: {
    message: string
    kind: ApiErrorKind
    method: string
    url: string
    status?: number
    envelope?: Envelope<unknown>
    cause?: unknown
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.kind = init.kind
    this.method = init.method
    this.url = init.url
    this.status = init.status
    this.envelope = init.envelope
  }

  /** The envelope's code, if any. */
  get code(): number | undefined {
    return this.envelope?.code
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError
}

/**
 * A typed call refused before sending (src/api/call.ts): a screen let through what the contract
 * refuses. It is shown like any other failure, in the user's language, naming the input's field,
 * instead of reaching the user as zod's English issue list.
 */
export function inputRefusal(init: { method: Method; field: string; cause: unknown; toast?: RequestOptions<unknown>['toast'] }): ApiError {
  const message = init.field ? translate('badInput', init.field) : translate('badInputWhole')
  const error = new ApiError({ message, kind: 'input', method: init.method, url: '', cause: init.cause })
  const show = typeof init.toast === 'function' ? init.toast(error) : init.toast !== false
  if (show) safely('toast', () => config.toast(error.message, { timeout: ERROR_TOAST_MS }))
  return error
}

// ---------------------------------------------------------------------------------------------
// Calls

type QueryValue = string | number | boolean | null | undefined
export type Query = Readonly<Record<string, QueryValue | readonly QueryValue[]>>
/** A JSON object or array (serialized), or FormData / URLSearchParams / Blob / string sent as is. */
export type Body = object | string
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RequestOptions<T> {
  /** Time-out of this call in ms (default: the configured one). */
  timeout?: number
  /** Abort the call; an aborted call rejects with kind 'aborted' and shows no toast. */
  signal?: AbortSignal
  /**
   * false: no error toast; the caller shows the failure itself. A function says so per refusal
   * (false for one the caller answers, e.g. with a question). Default true.
   */
  toast?: boolean | ((error: ApiError) => boolean)
  /** false: codes 401 / 50008 / 50012 / 50014 neither log out nor open the dialog (for logout itself). Default true. */
  sessionEffects?: boolean
  /** Validate a successful envelope; a mismatch is an invalid response (toast, rejection). */
  schema?: ZodType<Envelope<T>>
  headers?: Readonly<Record<string, string>>
}

export interface ApiRequest<T> extends RequestOptions<T> {
  query?: Query
  body?: Body
}

class Deadline extends Error {}
class CallerAbort extends Error {}

/** Runs `run` with a signal that aborts after `ms` or with `outer`; settles no later than that. */
function withDeadline<R>(ms: number, outer: AbortSignal | undefined, run: (signal: AbortSignal) => Promise<R>): Promise<R> {
  const controller = new AbortController()
  return new Promise<R>((resolve, reject) => {
    const onAbort = () => {
      controller.abort(outer?.reason)
      reject(new CallerAbort('aborted'))
    }
    const timer = setTimeout(() => {
      const e = new Deadline(`timeout of ${ms} ms`)
      controller.abort(e)
      reject(e)
    }, ms)
    if (outer?.aborted) onAbort()
    else outer?.addEventListener('abort', onAbort, { once: true })
    run(controller.signal)
      .then(resolve, reject)
      .finally(() => {
        clearTimeout(timer)
        outer?.removeEventListener('abort', onAbort)
      })
  })
}

function translate(name: MessageName, param?: string | number): string {
  const key = apiMessageKeys[name]
  let text = fallbackMessages[name]
  try {
    const t = config.translate?.(key)
    if (t && t !== key) text = t
  } catch {
    // a broken dictionary must not hide the failure itself
  }
  return param === undefined ? text : text.replaceAll('{0}', String(param))
}

function safely(what: string, effect: () => void): void {
  try {
    effect()
  } catch (e) {
    console.error(`[api] ${what} failed`, e)
  }
}

/** The address for logs and errors: base + path + query, token values hidden. */
function describeUrl(path: string, query: Query | undefined): string {
  const base = /^https?:\/\//i.test(path) ? '' : baseURL.replace(/\/+$/, '') + '/'
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(v) ? v : [v]) {
      if (item === undefined || item === null) continue
      params.append(k, /token/i.test(k) ? '***' : String(item))
    }
  }
  const qs = params.toString()
  return base + path.replace(/^\/+/, base ? '' : '/') + (qs ? `?${qs}` : '')
}

function parseEnvelope(text: unknown): Envelope<unknown> | undefined {
  if (typeof text !== 'string' || text.length === 0) return undefined
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return undefined
  }
  return asEnvelope(json)
}

/**
 * The envelope fields of a JSON body, or undefined when it is not one (contract/envelope.ts).
 * Checked by hand, not with zod: this module is in the sign-in page's first load.
 */
function asEnvelope(json: unknown): Envelope<unknown> | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
  const { code, msg, data, boolResult } = json as Record<string, unknown>
  if (!Number.isSafeInteger(code) || typeof msg !== 'string') return undefined
  if (boolResult !== undefined && typeof boolResult !== 'boolean') return undefined
  return {
    code: code as number,
    msg,
    ...(data === undefined ? {} : { data }),
    ...(boolResult === undefined ? {} : { boolResult }),
  }
}

function openRelogin(): void {
  if (reloginOpen) return
  reloginOpen = true
  let answer: Promise<boolean>
  try {
    answer = Promise.resolve(config.confirmRelogin())
  } catch (e) {
    answer = Promise.reject(e)
  }
  answer
    .then(
      (relogin) => {
        if (!relogin) return
        safely('forceLogout', () => config.forceLogout())
        safely('reload', () => config.reload())
      },
      (e: unknown) => console.error('[api] re-login dialog failed', e),
    )
    .finally(() => {
      reloginOpen = false
    })
}

/** A refusal the app handles (the server said no; 4xx or a non-zero code): not an interface error. */
const handledRefusal = (e: ApiError) => (e.kind === 'code' || e.kind === 'http') && (e.status === undefined || e.status < 500)

/**
 * One exchange with the server: sends with the session header and language, and turns every
 * failure into an ApiError after the SPEC §8 effects. `request` and `download` share it.
 */
function exchange<T>(method: Method, path: string, init: ApiRequest<T>) {
  const url = describeUrl(path, init.query)
  const toasts = (error: ApiError) => (typeof init.toast === 'function' ? init.toast(error) : init.toast !== false)
  const sessionEffects = init.sessionEffects !== false

  const fail = (error: ApiError, show: boolean): never => {
    // SPEC: interface errors are logged with their URL; a handled refusal is one line, no stack.
    if (error.kind !== 'aborted') (handledRefusal(error) ? console.warn : console.error)(`[api] ${method} ${url}: ${error.message}`)
    if (show && toasts(error)) safely('toast', () => config.toast(error.message, { timeout: ERROR_TOAST_MS }))
    throw error
  }

  const send = async <R extends 'text' | 'blob'>(responseType: R) => {
    const ms = init.timeout ?? timeoutMs
    try {
      // A relative path would resolve against the page's address (/project/api/…) under base '/'.
      const target = /^https?:\/\//i.test(path) ? path : `/${path.replace(/^\/+/, '')}`
      const response = await withDeadline(ms, init.signal, (signal) =>
        instance.raw<R extends 'blob' ? Blob : string, R>(target, {
          method,
          query: init.query as Record<string, unknown> | undefined,
          body: init.body as BodyInit | Record<string, unknown> | undefined,
          headers: init.headers as Record<string, string> | undefined,
          signal,
          responseType,
          ignoreResponseError: true,
        }),
      )
      return { status: response.status, headers: response.headers, data: response._data }
    } catch (cause) {
      if (cause instanceof CallerAbort)
        return fail(new ApiError({ message: 'aborted', kind: 'aborted', method, url, cause: init.signal?.reason }), false)
      if (cause instanceof Deadline)
        return fail(new ApiError({ message: translate('timeout', ms), kind: 'timeout', method, url, cause }), true)
      return fail(new ApiError({ message: translate('network'), kind: 'network', method, url, cause }), true)
    }
  }

  /** A non-zero code or a failed status: the session rules, the toast, the rejection. */
  const refuse = (status: number, body: Envelope<unknown> | undefined): never => {
    if (body && body.code !== codes.ok) {
      const error = new ApiError({ message: body.msg || translate('unknown'), kind: 'code', method, url, status, envelope: body })
      if (sessionEffects) {
        if (body.code === codes.unauthorized) {
          safely('forceLogout', () => config.forceLogout())
          safely('reload', () => config.reload())
        } else if (reloginCodes.has(body.code)) {
          openRelogin()
        }
      }
      return fail(error, status !== 401)
    }
    if (status >= 200 && status < 300)
      return fail(new ApiError({ message: translate('badResponse'), kind: 'invalid', method, url, status }), true)
    return fail(new ApiError({ message: translate('http', status), kind: 'http', method, url, status }), status !== 401)
  }

  return { url, fail, send, refuse }
}

/** One call. Resolves with the envelope of code 0; otherwise applies SPEC §8 and rejects with an ApiError. */
export async function request<T>(method: Method, path: string, init: ApiRequest<T> = {}): Promise<Envelope<T>> {
  const call = exchange(method, path, init)
  const { status, data } = await call.send('text')
  const body = parseEnvelope(data)
  if (status >= 200 && status < 300 && body?.code === codes.ok) {
    if (!init.schema) return body as Envelope<T>
    const checked = init.schema.safeParse(body)
    if (checked.success) return checked.data
    return call.fail(
      new ApiError({
        message: translate('badResponse'),
        kind: 'invalid',
        method,
        url: call.url,
        status,
        envelope: body,
        cause: checked.error,
      }),
      true,
    )
  }
  return call.refuse(status, body)
}

export interface DownloadedFile {
  blob: Blob
  /** The name the server gave (Content-Disposition), if any. */
  filename: string | null
}

/**
 * The file name a Content-Disposition gives (RFC 6266): its `filename*` (RFC 5987/8187,
 * `UTF-8''%E6%95%B0…`, which keeps Chinese) before the plain `filename`, which servers fill with an
 * ASCII stand-in for older clients (`______.xlsx`).
 */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null
  const extended = /(?:^|;)\s*filename\*\s*=\s*([\w!#$&+.^`|~-]+)'[^']*'([^;\s]+)/i.exec(header)
  if (extended) {
    const [, charset = '', encoded = ''] = extended
    try {
      if (/^utf-8$/i.test(charset)) return decodeURIComponent(encoded)
      // ISO-8859-1: each %XX is one character of that code.
      if (/^iso-8859-1$/i.test(charset))
        return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    } catch {
      // A malformed %-sequence: fall back to the plain name.
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header)
  if (!plain) return null
  const name = plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : (plain[2] ?? '')
  return name || null
}

/**
 * GET of a file answer (an export), with the same header, language, time-out and SPEC §8 rules
 * as every call: a failure's JSON envelope is read for its code and message.
 */
export async function download(path: string, query?: Query, options?: RequestOptions<never>): Promise<DownloadedFile> {
  const call = exchange('GET', path, { ...options, query })
  const { status, headers, data = new Blob() } = await call.send('blob')
  const json = /json/i.test(headers.get('content-type') ?? '')
  if (status >= 200 && status < 300 && !json) {
    return { blob: data, filename: dispositionFileName(headers.get('content-disposition')) }
  }
  const body = parseEnvelope(await data.text())
  return call.refuse(status, body)
}

/**
 * A multipart POST whose upload progress is reported as a fraction (fetch cannot report it, so
 * this call uses XHR), with the same header, language, time-out and SPEC §8 rules as `request`.
 */
export function uploadWithProgress<T>(
  path: string,
  form: FormData,
  query: Query | undefined,
  onProgress: (fraction: number) => void,
  options: RequestOptions<T> = {},
): Promise<Envelope<T>> {
  const call = exchange('POST', path, { ...options, query })
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined && item !== null) params.append(k, String(item))
  }
  const qs = params.toString()
  const target = baseURL.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '') + (qs ? `?${qs}` : '')
  return new Promise<Envelope<T>>((resolve, reject) => {
    const settle = (fn: () => never) => {
      try {
        fn()
      } catch (e) {
        reject(e)
      }
    }
    const xhr = new XMLHttpRequest()
    xhr.open('POST', target)
    xhr.timeout = options.timeout ?? timeoutMs
    const token = getToken()
    if (token) xhr.setRequestHeader(TOKEN_HEADER, token)
    const lang = config.language?.()
    if (lang) xhr.setRequestHeader('Accept-Language', lang)
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total)
    }
    xhr.onload = () => {
      const body = parseEnvelope(xhr.responseText)
      if (xhr.status >= 200 && xhr.status < 300 && body?.code === codes.ok) resolve(body as Envelope<T>)
      else settle(() => call.refuse(xhr.status, body))
    }
    xhr.onerror = () =>
      settle(() => call.fail(new ApiError({ message: translate('network'), kind: 'network', method: 'POST', url: call.url }), true))
    xhr.ontimeout = () =>
      settle(() =>
        call.fail(new ApiError({ message: translate('timeout', xhr.timeout), kind: 'timeout', method: 'POST', url: call.url }), true),
      )
    xhr.send(form)
  })
}

/** GET with query parameters. */
export function get<T>(path: string, query?: Query, options?: RequestOptions<T>): Promise<Envelope<T>> {
  return request<T>('GET', path, { ...options, query })
}

/** POST with a JSON body (or FormData) and query parameters. */
export function post<T>(path: string, body?: Body, query?: Query, options?: RequestOptions<T>): Promise<Envelope<T>> {
  return request<T>('POST', path, { ...options, body, query })
}

/** PUT with a JSON body and query parameters. */
export function put<T>(path: string, body?: Body, query?: Query, options?: RequestOptions<T>): Promise<Envelope<T>> {
  return request<T>('PUT', path, { ...options, body, query })
}

/** DELETE with query parameters. */
export function del<T>(path: string, query?: Query, options?: RequestOptions<T>): Promise<Envelope<T>> {
  return request<T>('DELETE', path, { ...options, query })
}
