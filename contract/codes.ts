/** Codes of the envelope besides HTTP status; SPEC §8 gives the client's reading of them. */
export const codes = {
  ok: 0,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooLarge: 413,
  tooMany: 429,
  serverError: 500,
  illegalToken: 50008,
  tokenEndedElsewhere: 50012,
  tokenExpired: 50014,
} as const

export type Code = (typeof codes)[keyof typeof codes]
