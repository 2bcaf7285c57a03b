import type { DependencyRow, ProjectRow, TaskRow } from '../../store/store.js';

/** What the read cache is keyed by: every plan write and every change of the project's own fields moves it. */
export function readVersion(project: Pick<ProjectRow, 'plan_version' | 'updated_at'>): string {
  return `${project.plan_version}|${project.updated_at}`;
}

/**
 * The tasks and dependencies a plan write committed: the first full read of that version
 * presents them instead of reading every row back. Rows are never changed after their
 * commit (the next write works on copies).
 */
export interface CommittedRows {
  tasks: readonly TaskRow[];
  dependencies: readonly DependencyRow[];
}

/** Roughly what one task or link takes serialised: how committed rows count against the bound. */
const bytesPerRow = 1024;

type Content = Buffer | CommittedRows;

function sizeOf(content: Content): number {
  return Buffer.isBuffer(content) ? content.length : (content.tasks.length + content.dependencies.length) * bytesPerRow;
}

/**
 * Full-project reads by project and version (the plan version and the project row's
 * `updated_at`): the serialised response, or what a write committed for that version.
 * Bounded by total size: least recently used projects are dropped first. An entry for an
 * older version is simply never asked for again.
 */
export class ReadCache {
  private readonly entries = new Map<string, { version: string; content: Content; size: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(projectId: string, version: string): Content | undefined {
    const entry = this.entries.get(projectId);
    if (!entry || entry.version !== version) return undefined;
    this.entries.delete(projectId);
    this.entries.set(projectId, entry);
    return entry.content;
  }

  set(projectId: string, version: string, content: Content): void {
    const previous = this.entries.get(projectId);
    if (previous) this.bytes -= previous.size;
    this.entries.delete(projectId);
    const size = sizeOf(content);
    this.entries.set(projectId, { version, content, size });
    this.bytes += size;
    for (const [id, entry] of this.entries) {
      if (this.bytes <= this.maxBytes || id === projectId) break;
      this.entries.delete(id);
      this.bytes -= entry.size;
    }
  }
}
