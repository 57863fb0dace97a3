import fs from 'node:fs'
import { Readable } from 'node:stream'

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
