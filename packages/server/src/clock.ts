/** The only source of "now": rate-limit windows, key expiry and timestamps read it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
