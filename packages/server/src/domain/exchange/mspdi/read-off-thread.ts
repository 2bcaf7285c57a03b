import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FieldProblem } from '@gantry/contract';
import { invalid } from '../../errors.js';
import type { readMspdi } from './read.js';

type Read = ReturnType<typeof readMspdi>;
export type WorkerAnswer = { read: Read; problems?: undefined } | { read?: undefined; problems: FieldProblem[] };

/**
 * The worker's script. Built, it sits beside this module; run from the TypeScript sources
 * (the tests), it is the build's copy, as a worker thread loads plain JavaScript only
 * (`npm test` builds first).
 */
function workerScript(): URL {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return new URL('./read-worker.js', import.meta.url);
  return pathToFileURL(here.replace(/([\\/])src([\\/])(?!.*[\\/]src[\\/])/, '$1dist$2').replace(/read-off-thread\.ts$/, 'read-worker.js'));
}

/**
 * `readMspdi` on a worker thread. Parsing is synchronous and takes about a tenth of a
 * second per megabyte: a file at the 4 MiB request limit would hold every other request
 * of the server for half a second on the main thread; on its own thread it holds none.
 * Throws the same `invalid` (path `data`) for a file that cannot be read.
 */
export function readMspdiOffThread(xml: string): Promise<Read> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerScript(), { workerData: xml });
    worker.once('message', (answer: WorkerAnswer) => (answer.read ? resolve(answer.read) : reject(invalid(answer.problems!))));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the MSPDI reader's worker stopped (exit code ${code}) without an answer`)));
  });
}
