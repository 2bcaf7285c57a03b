/**
 * Serialised full-project reads by project and version (the plan version and the project
 * row's `updated_at`). Bounded by total size: least recently used projects are dropped
 * first. An entry for an older version is simply never asked for again.
 */
export class ReadCache {
  private readonly entries = new Map<string, { version: string; json: Buffer }>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(projectId: string, version: string): Buffer | undefined {
    const entry = this.entries.get(projectId);
    if (!entry || entry.version !== version) return undefined;
    this.entries.delete(projectId);
    this.entries.set(projectId, entry);
    return entry.json;
  }

  set(projectId: string, version: string, json: Buffer): void {
    const previous = this.entries.get(projectId);
    if (previous) this.bytes -= previous.json.length;
    this.entries.delete(projectId);
    this.entries.set(projectId, { version, json });
    this.bytes += json.length;
    for (const [id, entry] of this.entries) {
      if (this.bytes <= this.maxBytes || id === projectId) break;
      this.entries.delete(id);
      this.bytes -= entry.json.length;
    }
  }
}
