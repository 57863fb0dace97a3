// `npm run dev`: the API with restart on change (tsx watch) and Vite with hot reload, proxied.
import { spawn } from 'node:child_process'
import { serverArgs } from './server.mjs'

const apiPort = process.env.API_PORT || '8081'
const children = [
  spawn(process.execPath, serverArgs(['--watch']), {
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--port', process.env.PORT || '8080', '--strictPort'], {
    stdio: 'inherit',
    env: { ...process.env, API_PORT: apiPort },
  }),
]
const stop = (sig) => children.forEach((c) => c.kill(sig))
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop(sig))
for (const c of children) c.on('exit', (code) => (stop('SIGTERM'), process.exit(code ?? 0)))
