import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'

/** OpenAPI from the zod route schemas, browsable at /api/docs. Register before the routes. */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Clinical research workspace API',
        description: 'Every body is `{ code, msg, data?, boolResult? }`; code 0 is success. Send the session token in the Kr-D-Token header.',
        version: '1',
      },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Kr-D-Token' } } },
      security: [{ token: [] }],
    },
    transform: jsonSchemaTransform,
  })
  await app.register(swaggerUi, { routePrefix: '/api/docs' })
})
