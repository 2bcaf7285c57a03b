import type { FieldProblem } from '@gantry/contract';
import { AppError } from '../errors.js';
import { writeCsv } from './csv.js';
import { decodeXmlFile } from './mspdi/encoding.js';
import { readMspdi } from './mspdi/read.js';
import { writeMspdi } from './mspdi/write.js';
import type { FileAnswer, FileJob } from './off-thread.js';

/** Does one job in a thread of the pool (off-thread.ts): the file decoded, the plan read or the file written, or the problems that make a file unreadable. */
export default function fileJob(job: FileJob): FileAnswer {
  try {
    if (job.kind === 'decodeXml') return { decoded: decodeXmlFile(job.bytes) };
    return job.kind === 'readMspdi' ? { read: readMspdi(job.xml) } : { written: (job.format === 'mspdi' ? writeMspdi : writeCsv)(job.document, job.schedule) };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
    return { problems: (error.details as { fields: FieldProblem[] }).fields };
  }
}
