/**
 * The instant a project's schedule starts: 00:00 UTC of its start date until the
 * scheduling engine is wired in, which will snap it to the first working minute of
 * the project calendar.
 */
export function projectStartAt(startDate: string): string {
  return `${startDate}T00:00:00.000Z`;
}
