import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { FieldProblem } from '@gantry/contract';
import { workerScriptUrl } from '../../worker-script.js';
import { invalid } from '../errors.js';
import type { readMspdi } from './mspdi/read.js';
import type { TaskSchedule } from './mspdi/write.js';
import type { PlanDocument } from './plan-document.js';

type Read = ReturnType<typeof readMspdi>;

/** What the file worker is asked: read a Microsoft Project file, or write a plan as a file. */
export type FileJob =
  | { kind: 'decodeXml'; bytes: Uint8Array }
  | { kind: 'readMspdi'; xml: string }
  | { kind: 'write'; format: 'mspdi' | 'csv'; document: PlanDocument; schedule: TaskSchedule };
export type FileAnswer = { decoded: string } | { read: Read } | { written: string } | { problems: FieldProblem[] };

/**
 * Threads for file jobs, made on the first job. Reading and writing files is synchronous:
 * parsing takes about a tenth of a second per megabyte, and writing a 10,000-task plan as
 * XML a quarter of a second; on the main thread that would hold every other request of the
 * server as long, on a thread of its own it holds none. The pool bounds the threads (one
 * per core at most, each with its heap): more jobs at once wait their turn instead of each
 * making a thread, and a thread idle for a minute ends.
 */
let pool: Piscina<FileJob, FileAnswer> | undefined;

/** How many threads the pool holds now (0 before the first job). */
export function fileJobThreads(): number {
  return pool?.threads.length ?? 0;
}

function runFileJob(job: FileJob): Promise<FileAnswer> {
  pool ??= new Piscina({ filename: workerScriptUrl(import.meta.url, 'file-worker.js').href, minThreads: 0, maxThreads: availableParallelism(), idleTimeout: 60_000 });
  return pool.run(job);
}

/** `decodeXmlFile` on a worker thread: decoding a 4 MiB file takes up to a tenth of a second. */
export async function decodeXmlFileOffThread(bytes: Uint8Array): Promise<string> {
  const answer = await runFileJob({ kind: 'decodeXml', bytes });
  if ('problems' in answer) throw invalid(answer.problems);
  if (!('decoded' in answer)) throw new Error('the file worker answered a decoding with something else');
  return answer.decoded;
}

/** `readMspdi` on a worker thread: the same plan and report, or the same `invalid` (path `data`) for a file that cannot be read. */
export async function readMspdiOffThread(xml: string): Promise<Read> {
  const answer = await runFileJob({ kind: 'readMspdi', xml });
  if ('problems' in answer) throw invalid(answer.problems);
  if (!('read' in answer)) throw new Error('the file worker answered a read with something else');
  return answer.read;
}

/** `writeMspdi` or `writeCsv` on a worker thread. */
export async function writeFileOffThread(format: 'mspdi' | 'csv', document: PlanDocument, schedule: TaskSchedule): Promise<string> {
  const answer = await runFileJob({ kind: 'write', format, document, schedule });
  if (!('written' in answer)) throw new Error('the file worker answered a write with something else');
  return answer.written;
}
