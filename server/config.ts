import path from 'node:path'
import { isTimeZone, systemTimeZone } from './services/calendarDay.ts'

export interface Config {
  port: number
  host: string
  databaseUrl: string
  dataDir: string
  adminPassword: string | undefined
  tokenTtlMinutes: number
  loginRatePerMinute: number
  staticRoot: string
  /** Days an upload's file and report, and a download's file, can be fetched again. */
  retentionDays: number
  /** The time zone whose calendar days plan follow-up visits. */
  timeZone: string
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer (got ${value})`)
  return n
}

/**
 * PASSWORD_HASH_COST, log2 of scrypt's N for new password hashes: 15 (32 MiB, tens of milliseconds
 * a hash) unless set, from 10 to 17 (128 MiB). services/passwordHash.ts reads it when loaded.
 */
export function passwordHashCost(value: string | undefined): number {
  if (value === undefined || value === '') return 15
  const n = Number(value)
  if (!Number.isInteger(n) || n < 10 || n > 17) throw new Error(`PASSWORD_HASH_COST must be an integer from 10 to 17 (got ${value})`)
  return n
}

function timeZone(value: string | undefined): string {
  if (value === undefined || value === '') return systemTimeZone()
  if (!isTimeZone(value)) throw new Error(`TIME_ZONE must be a time zone such as Asia/Shanghai or UTC (got ${value})`)
  return value
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = env.DATA_DIR || 'data'
  return {
    port: int('PORT', env.PORT, 8080),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || `sqlite:${path.join(dataDir, 'clinical.db')}`,
    dataDir,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    tokenTtlMinutes: int('TOKEN_TTL_MINUTES', env.TOKEN_TTL_MINUTES, 12 * 60),
    loginRatePerMinute: int('LOGIN_RATE_PER_MINUTE', env.LOGIN_RATE_PER_MINUTE, 60),
    staticRoot: path.resolve(env.STATIC_ROOT || 'dist'),
    retentionDays: int('DATA_RETENTION_DAYS', env.DATA_RETENTION_DAYS, 90),
    timeZone: timeZone(env.TIME_ZONE),
  }
}
