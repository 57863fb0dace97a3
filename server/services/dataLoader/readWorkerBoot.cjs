// The entry of the upload reader's worker thread. A CommonJS file loading the TypeScript worker by
// require is what works in Node 20 with `--import tsx` in the worker's execArgv: an ESM or eval
// entry starts before tsx's hooks are in place and cannot load a .ts file.
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose, see above */
require(require('node:worker_threads').workerData.file)
