/**
 * The answer schemas of the sign-in and session calls, loaded with the first of them: zod stays
 * out of the sign-in page's first load (bench/palette.ts budget). The sign-in page fetches them
 * as soon as it shows, so a sign-in does not wait for them.
 */
export const loadAuthSchemas = () => import('../../../../contract/auth.ts')
