/**
 * Internal switches, not part of the public API (not exported from `index.ts`). The fast
 * paths below must give exactly the results of the general code; tests turn them off to
 * prove it (`test/properties/fast-path.test.ts`).
 */
export const fastPaths = {
  /** Calendars without exceptions map positions back to instants through one weekly table. */
  weeklyCalendar: true,
  /** The floats reuse the working positions the passes already computed. */
  rememberedPositions: true,
  /** Plain leaves (see `Network.plain`) skip the constraint, progress and manual cases of the backward pass. */
  plainLeaves: true,
};
