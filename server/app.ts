import Fastify, { type FastifyInstance } from 'fastify'
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Db } from './db/connect.ts'
import type { AuthPolicy, ServiceContext } from './services/context.ts'
import errors, { clientErrorHandler, frameworkErrors } from './plugins/errors.ts'
import context from './plugins/context.ts'
import guard from './plugins/auth.ts'
import inputs from './plugins/inputs.ts'
import { loggerOptions, type LogDestination } from './plugins/logging.ts'
import openapi, { docs } from './plugins/openapi.ts'
import security from './plugins/security.ts'
import { serializerCompiler } from './plugins/serializer.ts'
import staticFiles from './plugins/staticFiles.ts'
import type { RateLimit } from './plugins/rateLimit.ts'
import authRoutes from './routes/auth/index.ts'
import healthRoutes from './routes/health/index.ts'
import dictionaryExchangeRoutes from './routes/dictionaryExchange/index.ts'
import templateRoutes from './routes/templates/index.ts'
import dictionaryRoutes from './routes/dictionary/index.ts'
import auditRoutes from './routes/audit/index.ts'
import studyObjectRoutes from './routes/studyObject/index.ts'
import subjectListRoutes from './routes/subjectList/index.ts'
import userRoutes from './routes/users/index.ts'
import organizationRoutes from './routes/organization/index.ts'
import roleRoutes from './routes/roles/index.ts'
import catalogRoutes from './routes/catalog/index.ts'
import projectRoutes from './routes/projects/index.ts'
import centerRoutes from './routes/centers/index.ts'
import projectSetupRoutes from './routes/projectSetup/index.ts'
import randomizationRoutes from './routes/randomization/index.ts'
import enrolmentRoutes from './routes/enrolment/index.ts'
import projectMemberRoutes from './routes/projectMembers/index.ts'
import studyDataRoutes from './routes/studyData/index.ts'
import followUpRoutes from './routes/followUp/index.ts'
import sampleRoutes from './routes/samples/index.ts'
import attachmentRoutes from './routes/attachments/index.ts'
import dataLoaderRoutes from './routes/dataLoader/index.ts'
import { systemTimeZone } from './services/calendarDay.ts'

export interface AppOptions {
  db: Db
  /** The built client (dist/); null serves the API alone. */
  staticRoot?: string | null
  now?: () => Date
  auth?: Partial<AuthPolicy>
  loginRateLimit?: RateLimit
  bodyLimit?: number
  /** DATA_DIR (server/config.ts); 'data' when not given. */
  dataDir?: string
  /** DATA_RETENTION_DAYS (server/config.ts); 90 when not given. */
  retentionDays?: number
  /** TIME_ZONE (server/config.ts); the system's when not given. */
  timeZone?: string
  /** Request log: off, pino to stdout, or lines to a destination (tests read them). */
  logger?: boolean | LogDestination
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
  const logger = opts.logger ?? false
  const app = Fastify({
    logger: logger === false ? false : loggerOptions(logger === true ? undefined : logger),
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    trustProxy: false,
    clientErrorHandler,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  const ctx: ServiceContext = {
    db: opts.db.kysely,
    now: opts.now ?? (() => new Date()),
    auth: { ...defaultAuthPolicy, ...opts.auth },
    dataDir: opts.dataDir ?? 'data',
    retentionDays: opts.retentionDays ?? 90,
    timeZone: opts.timeZone ?? systemTimeZone(),
  }
  await app.register(errors)
  await app.register(security)
  await app.register(context, { ctx })
  await app.register(openapi)
  await app.register(
    async (api) => {
      // Every route below needs a session and an authorized action unless it says `public`.
      await api.register(guard)
      await api.register(inputs)
      await api.register(docs)
      await api.register(healthRoutes)
      await api.register(templateRoutes)
      await api.register(authRoutes, { loginRateLimit: opts.loginRateLimit ?? defaultLoginRateLimit })
      await api.register(dictionaryExchangeRoutes)
      await api.register(dictionaryRoutes)
      await api.register(auditRoutes)
      await api.register(studyObjectRoutes)
      await api.register(subjectListRoutes)
      await api.register(userRoutes)
      await api.register(organizationRoutes)
      await api.register(roleRoutes)
      await api.register(catalogRoutes)
      await api.register(projectRoutes)
      await api.register(centerRoutes)
      await api.register(projectSetupRoutes)
      await api.register(randomizationRoutes)
      await api.register(enrolmentRoutes)
      await api.register(projectMemberRoutes)
      await api.register(studyDataRoutes)
      await api.register(followUpRoutes)
      await api.register(sampleRoutes)
      await api.register(attachmentRoutes)
      await api.register(dataLoaderRoutes)
    },
    { prefix: '/api' },
  )
  await app.register(staticFiles, { root: opts.staticRoot ?? null })
  return app
}
