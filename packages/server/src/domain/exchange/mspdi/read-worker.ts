import { parentPort, workerData } from 'node:worker_threads';
import type { FieldProblem } from '@gantry/contract';
import { AppError } from '../../errors.js';
import { readMspdi } from './read.js';
import type { WorkerAnswer } from './read-off-thread.js';

// Reads the file it was given and answers the plan, or the problems that make it unreadable.
const port = parentPort!;
let answer: WorkerAnswer;
try {
  answer = { read: readMspdi(workerData as string) };
} catch (error) {
  if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
  answer = { problems: (error.details as { fields: FieldProblem[] }).fields };
}
port.postMessage(answer);
