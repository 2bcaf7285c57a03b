import { z } from 'zod';
import { limits } from './limits.js';

/** A UUID; upper-case input is read as its canonical lower-case form (ids are stored and compared lower-case). */
export const Uuid = z.uuid().overwrite((id) => id.toLowerCase());

/** A whole-number query parameter: plain decimal digits only (`0x10`, `1e2`, ` 5` are refused). */
export function QueryInteger(min: number, max: number, fallback: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' && !/^[0-9]+$/.test(value) ? Number.NaN : value),
    z.coerce
      .number({ error: (issue) => (issue.code === 'invalid_type' ? 'must be a whole number' : undefined) })
      .int('must be a whole number')
      .min(min, `must be from ${min} to ${max}`)
      .max(max, `must be from ${min} to ${max}`)
      .default(fallback),
  );
}
// Dates a client sends: far enough inside the span the engine computes exactly (1600-2399)
// that the longest task (10,000,000 working minutes, about 80 years of 8-hour days) still
// fits; a chain of such tasks that leaves the span is refused by the write (400).
const plausibleYear = (value: string) => {
  const year = Number(value.slice(0, 4));
  return year >= limits.dateYearMin && year <= limits.dateYearMax;
};
const yearMessage = `must be in the years ${limits.dateYearMin}-${limits.dateYearMax}`;

/** A calendar date `YYYY-MM-DD` (years 1900-2199). */
export const DateOnly = z.iso.date().refine(plausibleYear, yearMessage);
/** An instant in UTC, as the API returns it (`2026-03-02T08:00:00.000Z`). */
export const DateTime = z.iso.datetime();
/** An instant as a client may send it: UTC or with an offset (years 1900-2199). */
export const DateTimeInput = z.iso.datetime({ offset: true }).refine(plausibleYear, yearMessage);

/**
 * `{field: {from, to}}` over the fields of `shape`, each optional: what an update event
 * reports, only the fields that changed, each typed as the resource types it.
 */
export function fieldChanges<Shape extends z.ZodRawShape>(shape: Shape) {
  const fields = Object.entries(shape).map(([name, value]) => [name, z.object({ from: value, to: value }).optional()]);
  // Object.fromEntries loses the keys; the mapped type restores what the entries hold.
  return z.object(Object.fromEntries(fields) as { [Field in keyof Shape]: z.ZodOptional<z.ZodObject<{ from: Shape[Field]; to: Shape[Field] }>> });
}

export const ErrorBody = z
  .object({
    error: z.string().describe('Stable error code, see the error catalogue.'),
    message: z.string().optional().describe('Human-readable explanation; may change, do not match on it.'),
    details: z
      .object({
        fields: z
          .array(z.object({ path: z.string(), message: z.string() }))
          .optional()
          .describe(`The field problems of a 400 \`invalid_request\`: every one, up to the first ${limits.errorFieldsMax}.`),
        fieldsOmitted: z.number().int().optional().describe('How many more field problems there were than `fields` lists (absent when none).'),
        reason: z.string().optional().describe('Why a 403 was answered, e.g. `destructive`.'),
        retryAfterSec: z.number().int().optional().describe('Seconds to wait after a 429.'),
        cycles: z
          .array(z.object({ path: z.string(), taskIds: z.array(z.string()), taskNames: z.array(z.string()) }))
          .optional()
          .describe('Every cycle of a 409 `dependency_cycle`.'),
        usedBy: z
          .object({ project: z.boolean(), taskIds: z.array(z.string()), calendarIds: z.array(z.string()) })
          .optional()
          .describe('What works on a calendar whose deletion is refused with 409 `conflict`: the project, tasks, calendars based on it.'),
      })
      .catchall(z.unknown())
      .optional(),
  })
  .describe('Every error: a stable code and optional details.');
export type ErrorBody = z.infer<typeof ErrorBody>;
