import { spawn } from 'node:child_process'

/**
 * Runs a bench file in a fresh process (so its time and memory are its own) and answers what it
 * printed on its `CHILD <json>` line; the child's other output is kept only for the error.
 * `nodeFlags` go to Node before the file (a child that stands for the server runs with the server's).
 */
export function runJsonChild<T>(file: string, args: readonly string[], label: string, nodeFlags: readonly string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', file, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.on('error', reject)
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('CHILD '))
      if (code !== 0 || !line) return reject(new Error(`${label}: child exited ${code}: ${out.slice(0, 800)}`))
      resolve(JSON.parse(line.slice(6)) as T)
    })
  })
}
