interface TypedArrayType<A> {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): A;
  readonly BYTES_PER_ELEMENT: number;
}

/**
 * Hands out zero-filled typed arrays of one type cut from one buffer of `total` elements,
 * so that a run allocates one buffer per element type instead of one per array (each
 * allocation has a fixed cost, and the engine keeps ~40 arrays per run). Asking for more
 * than `total` throws a RangeError.
 */
export function typedArrays<A>(Type: TypedArrayType<A>, total: number): (length: number) => A {
  const size = Type.BYTES_PER_ELEMENT;
  const buffer = new ArrayBuffer(size * total);
  let used = 0;
  return (length) => {
    const a = new Type(buffer, size * used, length);
    used += length;
    return a;
  };
}
