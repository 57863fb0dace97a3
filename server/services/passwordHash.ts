import crypto from 'node:crypto'
import { promisify } from 'node:util'
import { passwordProblem } from '../../contract/password.ts'
import { passwordHashCost } from '../config.ts'

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>

// N = 2^15, r = 8 by default: about 32 MiB and tens of milliseconds a hash on this class of
// machine. Read here, not passed down: every path that hashes (sign-up, reset, the tests' own
// accounts) uses the same cost. The API tests set 10, as their thousands of accounts are no secret.
const params = { N: 1 << passwordHashCost(process.env.PASSWORD_HASH_COST), r: 8, p: 1, keylen: 32 }
// scrypt takes 128 × N × r bytes: 128 MiB at the largest cost allowed, 17.
const maxmem = 256 * 1024 * 1024

/** `scrypt$N$r$p$salt$hash`, base64url; parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16)
  const key = await scrypt(password.normalize('NFKC'), salt, params.keylen, { N: params.N, r: params.r, p: params.p, maxmem })
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const key = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem,
  })
  return crypto.timingSafeEqual(key, expected)
}

let dummy: Promise<string> | undefined
/** A real hash to verify against when the user does not exist, so both answers take as long. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(crypto.randomBytes(12).toString('base64url'))
  return dummy
}

/**
 * A password an administrator hands over once (first start, a new user, a reset): letters and
 * digits without look-alikes, at least one of each, so it obeys SPEC §5 too.
 */
export function randomPassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'
  for (;;) {
    const candidate = Array.from({ length: 16 }, () => alphabet[crypto.randomInt(alphabet.length)]).join('')
    if (passwordProblem(candidate) === null) return candidate
  }
}
