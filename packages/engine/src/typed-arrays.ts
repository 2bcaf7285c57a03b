/**
 * Hands out zero-filled typed arrays cut from one buffer of `total` elements, so that a
 * run allocates one buffer per element type instead of one per array (each allocation has
 * a fixed cost, and the engine keeps ~40 arrays per run). Asking for more than `total`
 * throws a RangeError.
 */
export function float64Arrays(total: number): (length: number) => Float64Array<ArrayBuffer> {
  const buffer = new ArrayBuffer(8 * total);
  let used = 0;
  return (length) => {
    const a = new Float64Array(buffer, 8 * used, length);
    used += length;
    return a;
  };
}

/** Like `float64Arrays`, for bytes. */
export function uint8Arrays(total: number): (length: number) => Uint8Array<ArrayBuffer> {
  const buffer = new ArrayBuffer(total);
  let used = 0;
  return (length) => {
    const a = new Uint8Array(buffer, used, length);
    used += length;
    return a;
  };
}
