import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

// The store's WAL checkpoints, on a thread of their own (sqlite.ts › checkpointOffThread):
// every interval, the pages that commits appended to the WAL are copied into the database
// file. PASSIVE never waits for readers or writers; what it cannot copy now, it copies next time.
const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const database = new SqliteDatabase(file, { fileMustExist: true });
const timer = setInterval(() => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another process checkpoints): next time.
  }
}, intervalMs);
parentPort!.once('message', () => {
  clearInterval(timer);
  database.close();
  parentPort!.close();
});
