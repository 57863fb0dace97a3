import fs from 'node:fs'
import { Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import { ServiceError } from '../../server/services/errors.ts'

const boundaryOf = () => '----dictionary' + Math.random().toString(16).slice(2)

const head = (boundary: string, filename: string, field: string) =>
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  )

const tail = (boundary: string) => Buffer.from(`\r\n--${boundary}--\r\n`)

/** A multipart/form-data body with one file part, as a browser sends it. */
export function multipart(filename: string, data: Buffer, field = 'file') {
  const boundary = boundaryOf()
  return {
    payload: Buffer.concat([head(boundary, filename, field), data, tail(boundary)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

/**
 * The same body streamed from a file on disk: the file is never whole in this process's memory,
 * as it is not in a server's whose client is another process (the upload bench counts this
 * process's peak RSS as the server's).
 */
export function multipartFromFile(filename: string, file: string, field = 'file') {
  const boundary = boundaryOf()
  async function* body() {
    yield head(boundary, filename, field)
    yield* fs.createReadStream(file)
    yield tail(boundary)
  }
  return { payload: Readable.from(body(), { objectMode: false }), contentType: `multipart/form-data; boundary=${boundary}` }
}

/**
 * A multipart request whose one file busboy cuts at `limit` bytes, in busboy's order: the cut
 * chunk is handed on (straight to a reader that pipes the file and keeps up; one that iterates it
 * takes the chunk a tick later, and finds it marked), then the file is marked cut and says so, and
 * the rest of the body never ends. Answers what the reader came to within 5 s.
 */
export function cutFileRequest<T>(read: (req: FastifyRequest) => Promise<T>, limit: number): Promise<string> {
  const file = Object.assign(new Readable({ read() {} }), { truncated: false })
  const part = { fieldname: 'file', filename: 'big.bin', mimetype: 'application/octet-stream', file }
  const req = {
    isMultipart: () => true,
    files: async function* () {
      yield part
    },
  } as unknown as FastifyRequest
  const received = read(req).then(
    () => 'received',
    (err: unknown) => (err instanceof ServiceError ? err.key : String(err)),
  )
  const cut = async () => {
    // Once the reader reads the file as it comes: the cut chunk goes straight to it.
    while (file.readableFlowing !== true) await new Promise((resolve) => setTimeout(resolve, 5))
    file.push(Buffer.alloc(limit, 'a'))
    file.truncated = true
    file.emit('limit')
  }
  void cut()
  return Promise.race([received, new Promise<string>((resolve) => setTimeout(() => resolve('still reading'), 5_000))])
}
