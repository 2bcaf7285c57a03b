import { parentPort, workerData } from 'node:worker_threads';
import type { FieldProblem } from '@gantry/contract';
import { AppError } from '../errors.js';
import { writeCsv } from './csv.js';
import { readMspdi } from './mspdi/read.js';
import { writeMspdi } from './mspdi/write.js';
import type { FileAnswer, FileJob } from './off-thread.js';

// Does the one job it was given (off-thread.ts) and answers: the plan read or the file written, or the problems that make a file unreadable.
const port = parentPort!;
const job = workerData as FileJob;
let answer: FileAnswer;
try {
  answer = job.kind === 'readMspdi' ? { read: readMspdi(job.xml) } : { written: (job.format === 'mspdi' ? writeMspdi : writeCsv)(job.document, job.schedule) };
} catch (error) {
  if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
  answer = { problems: (error.details as { fields: FieldProblem[] }).fields };
}
port.postMessage(answer);
