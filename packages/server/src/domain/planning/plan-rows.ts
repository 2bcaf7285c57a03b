/**
 * One kind of row in a plan being written (tasks, links, resources, assignments by task):
 * the committed rows, frozen and shared with the plan cache, seen through this write's
 * own copies. A write copies only the rows it touches, so a small edit of a large plan
 * costs what the edit costs; whatever it does or fails, the committed rows stay as they
 * were until `commit` (called once the transaction has committed).
 */
export class PlanRows<Row extends object> {
  /** Rows this write changed, replaced or added, by id: the only ones it may modify. */
  private readonly own = new Map<string, Row>();
  private readonly removed = new Set<string>();
  private added = 0;

  /** `committed` becomes this object's: `commit` writes the changes into it. */
  constructor(private readonly committed: Map<string, Row> = new Map()) {}

  /** Rows read from the store: frozen, so that no write changes a committed row in place. */
  static loaded<Row extends { id: string }>(rows: readonly Row[]): PlanRows<Row> {
    return new PlanRows(new Map(rows.map((row) => [row.id, Object.freeze(row)])));
  }

  get size(): number {
    return this.committed.size + this.added - this.removed.size;
  }

  has(id: string): boolean {
    return this.own.has(id) || (this.committed.has(id) && !this.removed.has(id));
  }

  /** The row as this write sees it now. Do not change it: `edit` gives a row to change. */
  get(id: string): Readonly<Row> | undefined {
    return this.own.get(id) ?? (this.removed.has(id) ? undefined : this.committed.get(id));
  }

  /** The row as committed before this write (undefined for a row it added). */
  original(id: string): Readonly<Row> | undefined {
    return this.committed.get(id);
  }

  /** This write's own copy of a row, made on first need: the one to change. */
  edit(id: string): Row | undefined {
    const own = this.own.get(id);
    if (own || this.removed.has(id)) return own;
    const committed = this.committed.get(id);
    if (!committed) return undefined;
    const copy = { ...committed };
    this.own.set(id, copy);
    return copy;
  }

  /** Adds a row, or replaces one whole (rows that are not plain objects, such as a task's assignments). */
  set(id: string, row: Row): void {
    if (!this.has(id)) this.added += 1;
    if (this.removed.delete(id)) this.added -= 1;
    this.own.set(id, row);
  }

  delete(id: string): void {
    if (!this.has(id)) return;
    if (this.committed.has(id)) this.removed.add(id);
    else this.added -= 1;
    this.own.delete(id);
  }

  /** Every row, committed order first, then the rows this write added. */
  values(): IterableIterator<Readonly<Row>> {
    return this.own.size === 0 && this.removed.size === 0 ? this.committed.values() : this.merged();
  }

  private *merged(): IterableIterator<Readonly<Row>> {
    for (const [id, row] of this.committed) {
      if (!this.removed.has(id)) yield this.own.get(id) ?? row;
    }
    for (const [id, row] of this.own) if (!this.committed.has(id)) yield row;
  }

  /** Whether this write copied, added or replaced the row. */
  touches(id: string): boolean {
    return this.own.has(id);
  }

  /** True while this write has added and removed no row: the ids are the committed ones. */
  keepsCommittedIds(): boolean {
    return this.added === 0 && this.removed.size === 0;
  }

  /** Every row as committed before this write. */
  originals(): IterableIterator<Readonly<Row>> {
    return this.committed.values();
  }

  /** The rows this write copied or added (whether or not it then changed them). */
  touched(): IterableIterator<Row> {
    return this.own.values();
  }

  /**
   * Once the write has committed: its rows become the committed ones (frozen). Returns the
   * committed map, which the plan cache keeps for the next write.
   */
  commit(): Map<string, Row> {
    for (const id of this.removed) this.committed.delete(id);
    for (const [id, row] of this.own) this.committed.set(id, Object.freeze(row));
    this.own.clear();
    this.removed.clear();
    this.added = 0;
    return this.committed;
  }
}
