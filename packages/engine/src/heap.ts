/** A binary min-heap of numbers (node numbers, indices) under `less`. */
export class NumberHeap {
  private readonly items: number[] = [];

  constructor(private readonly less: (a: number, b: number) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  /** The least number; undefined when empty. */
  peek(): number | undefined {
    return this.items[0];
  }

  push(v: number): void {
    const items = this.items;
    let k = items.push(v) - 1;
    while (k > 0) {
      const parent = (k - 1) >>> 1;
      if (!this.less(v, items[parent]!)) break;
      items[k] = items[parent]!;
      k = parent;
    }
    items[k] = v;
  }

  pop(): number {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      let k = 0;
      for (;;) {
        let child = 2 * k + 1;
        if (child >= items.length) break;
        if (child + 1 < items.length && this.less(items[child + 1]!, items[child]!)) child++;
        if (!this.less(items[child]!, last)) break;
        items[k] = items[child]!;
        k = child;
      }
      items[k] = last;
    }
    return top;
  }
}
