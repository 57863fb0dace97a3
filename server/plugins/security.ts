import fp from 'fastify-plugin'
import helmet from '@fastify/helmet'

/**
 * The browser-side safety headers on every answer, HTML and API alike. The built client loads
 * only its own module scripts (no inline script: index.html has none), while Blueprint and
 * react-mosaic set inline styles, hence style-src 'unsafe-inline'. No frame may embed the app.
 * upgrade-insecure-requests is left out: installations on a hospital LAN run on plain HTTP.
 */
export const contentSecurityPolicy = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
}

export default fp(async (app) => {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy },
    frameguard: { action: 'deny' },
  })
})
