/**
 * PERT expected duration `(O + 4M + P) / 6` rounded to the nearest minute (docs/scheduling.md
 * › PERT, decision 11). `weights` default to 1-4-1 and must sum to 6 to keep the
 * scale; returns `null` when optimistic or pessimistic is missing or any input is not a
 * finite number. It is a derived value: it never replaces `durationMin`.
 */
export function pertExpectedDuration(
  optimisticMin: number | null | undefined,
  mostLikelyMin: number,
  pessimisticMin: number | null | undefined,
  weights: readonly [number, number, number] = [1, 4, 1],
): number | null {
  if (typeof optimisticMin !== 'number' || typeof pessimisticMin !== 'number') return null;
  if (![optimisticMin, mostLikelyMin, pessimisticMin, ...weights].every(Number.isFinite)) return null;
  const [wo, wm, wp] = weights;
  return Math.round((wo * optimisticMin + wm * mostLikelyMin + wp * pessimisticMin) / 6);
}
