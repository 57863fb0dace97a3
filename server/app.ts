import Fastify, { type FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Db } from './db/connect.ts'
import type { AuthPolicy, ServiceContext } from './services/context.ts'
import errors from './plugins/errors.ts'
import context from './plugins/context.ts'
import openapi from './plugins/openapi.ts'
import staticFiles from './plugins/staticFiles.ts'
import type { RateLimit } from './plugins/rateLimit.ts'
import authRoutes from './routes/auth/index.ts'
import healthRoutes from './routes/health/index.ts'
import dictionaryExchangeRoutes from './routes/dictionaryExchange/index.ts'
import templateRoutes from './routes/templates/index.ts'
import dictionaryRoutes from './routes/dictionary/index.ts'

export interface AppOptions {
  db: Db
  /** The built client (dist/); null serves the API alone. */
  staticRoot?: string | null
  now?: () => Date
  auth?: Partial<AuthPolicy>
  loginRateLimit?: RateLimit
  bodyLimit?: number
  logger?: boolean
}

export const defaultAuthPolicy: AuthPolicy = {
  tokenTtlMs: 12 * 60 * 60 * 1000,
  maxFailures: 5,
  failureWindowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
}

export const defaultLoginRateLimit: RateLimit = { max: 60, windowMs: 60 * 1000 }

/** The whole server as one instance, with no port bound: main.ts listens, tests inject. */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    trustProxy: false,
  }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.decorateRequest('me', null)

  const ctx: ServiceContext = {
    db: opts.db.kysely,
    now: opts.now ?? (() => new Date()),
    auth: { ...defaultAuthPolicy, ...opts.auth },
  }
  await app.register(errors)
  await app.register(context, { ctx })
  await app.register(openapi)
  await app.register(
    async (api) => {
      await api.register(healthRoutes)
      await api.register(templateRoutes)
      await api.register(authRoutes, { loginRateLimit: opts.loginRateLimit ?? defaultLoginRateLimit })
      await api.register(dictionaryExchangeRoutes)
      await api.register(dictionaryRoutes)
    },
    { prefix: '/api' },
  )
  await app.register(staticFiles, { root: opts.staticRoot ?? null })
  return app
}
