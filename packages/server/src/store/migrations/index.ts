import type { Migration } from 'kysely';
import { initial } from './0001-initial.js';

/** Every migration, in order. Names sort by their number; never rename or edit a landed one. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
};
