import type { ExportFormat, ImportReport, ProjectImport } from '@gantry/contract';
import type { z } from 'zod';
import type { Actor, DomainContext } from '../context.js';
import { FileDownload } from '../operation.js';
import { requireProject } from '../permissions.js';
import { createProjectFromDocument, documentAndTasksOfProject, type ProjectFromDocument } from '../projects/plan-documents.js';
import type { TaskSchedule } from './mspdi/write.js';
import { readMspdiOffThread, writeFileOffThread } from './off-thread.js';

/**
 * A new project from a Microsoft Project file: the plan it holds, through the one write
 * path (`project.created` with `data.source = "import"`), and the report of what the file
 * held that the plan could not keep as it was. A file that cannot be read creates nothing.
 */
export async function importProject(ctx: DomainContext, actor: Actor, input: z.output<typeof ProjectImport>): Promise<Omit<ProjectFromDocument, 'durationMs'> & { report: ImportReport }> {
  const { document, report } = await readMspdiOffThread(input.data);
  const { durationMs: _durationMs, ...created } = await createProjectFromDocument(ctx, actor, document, { source: 'import', name: input.name, key: input.key, workspaceId: input.workspaceId });
  return { ...created, report };
}

const exportMedia = {
  mspdi: { mediaType: 'application/xml; charset=utf-8', extension: 'xml' },
  csv: { mediaType: 'text/csv; charset=utf-8', extension: 'csv' },
} as const;

/** The plan as a file for Microsoft Project (with the dates as scheduled) or a spreadsheet (viewers). */
export async function exportProject(ctx: DomainContext, actor: Actor, projectId: string, format: z.output<typeof ExportFormat>): Promise<FileDownload> {
  const { project } = await requireProject(ctx, actor, projectId, 'viewer');
  const { document, tasks } = await ctx.store.snapshot((q) => documentAndTasksOfProject(q, project));
  const schedule: TaskSchedule = new Map(tasks.flatMap((task) => (task.start_at && task.finish_at ? [[task.id, { startAt: task.start_at, finishAt: task.finish_at }] as const] : [])));
  const { mediaType, extension } = exportMedia[format];
  return new FileDownload(Buffer.from(await writeFileOffThread(format, document, schedule), 'utf8'), mediaType, `${project.key}.${extension}`);
}
