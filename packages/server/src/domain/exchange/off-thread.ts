import { Worker } from 'node:worker_threads';
import type { FieldProblem } from '@gantry/contract';
import { workerScriptUrl } from '../../worker-script.js';
import { invalid } from '../errors.js';
import type { readMspdi } from './mspdi/read.js';
import type { TaskSchedule } from './mspdi/write.js';
import type { PlanDocument } from './plan-document.js';

type Read = ReturnType<typeof readMspdi>;

/** What the file worker is asked: read a Microsoft Project file, or write a plan as a file. */
export type FileJob = { kind: 'readMspdi'; xml: string } | { kind: 'write'; format: 'mspdi' | 'csv'; document: PlanDocument; schedule: TaskSchedule };
export type FileAnswer = { read: Read } | { written: string } | { problems: FieldProblem[] };

/**
 * Runs a file job on a worker thread. Reading and writing files is synchronous: parsing
 * takes about a tenth of a second per megabyte, and writing a 10,000-task plan as XML a
 * quarter of a second; on the main thread that would hold every other request of the
 * server as long, on its own thread it holds none.
 */
function runFileJob(job: FileJob): Promise<FileAnswer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerScriptUrl(import.meta.url, 'file-worker.js'), { workerData: job });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the file worker stopped (exit code ${code}) without an answer`)));
  });
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
