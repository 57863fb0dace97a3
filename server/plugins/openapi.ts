import fp from 'fastify-plugin'
import type { FastifyPluginAsync } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'

/** OpenAPI from the zod route schemas. Register before the routes. */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Clinical research workspace API',
        description:
          'Every body is `{ code, msg, data?, boolResult? }`; code 0 is success. Send the session token in the Kr-D-Token header.',
        version: '1',
      },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Kr-D-Token' } } },
      security: [{ token: [] }],
    },
    transform: jsonSchemaTransform,
  })
})

/**
 * The browsable page and its JSON at /api/docs, public: register inside the /api scope
 * (`indexPrefix` because the page links its assets by absolute path).
 */
export const docs: FastifyPluginAsync = async (app) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, public: true }
  })
  await app.register(swaggerUi, { routePrefix: '/docs', indexPrefix: '/api' })
}
