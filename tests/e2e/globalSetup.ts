import type { TestProject } from 'vitest/node'
import { startServer } from './serverProcess.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    adminPassword: string
  }
}

/** Starts the real server (built client, fresh SQLite) the way `npm start` does. */
export default async function setup(project: TestProject) {
  const server = await startServer()
  project.provide('baseUrl', server.baseUrl)
  project.provide('adminPassword', server.adminPassword)
  return () => server.dispose()
}
