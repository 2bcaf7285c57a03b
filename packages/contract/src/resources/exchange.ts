import { z } from 'zod';
import { Uuid } from '../common.js';
import { NewProjectResult, ProjectKey, ProjectName } from './projects.js';

export const ImportSubject = z.enum(['project', 'calendar', 'task', 'dependency', 'resource', 'assignment', 'baseline']);
export type ImportSubject = z.infer<typeof ImportSubject>;

export const ImportReportItem = z
  .object({
    subject: ImportSubject,
    ref: z.string().nullable().describe("The file's UID of the first row this finding applies to (null for the project, or a row without one)."),
    name: z.string().nullable().describe('The name of that first row, when it has one.'),
    message: z.string(),
    count: z.number().int().positive().describe('How many rows of the file this finding applies to.'),
  })
  .describe(
    'One kind of finding: the rows it applies to are counted, not listed, so a file with 10,000 tasks of an unsupported kind gives one item with its first row and `count` 10,000.',
  );
export type ImportReportItem = z.infer<typeof ImportReportItem>;

export const ImportReport = z
  .object({
    dropped: z.array(ImportReportItem).describe('What the file holds that the imported plan leaves out (rows, and fields Gantry has no place for).'),
    approximated: z.array(ImportReportItem).describe('What the plan keeps in a nearby form (elapsed durations as working time, percentage lags as minutes, …).'),
  })
  .describe('What an import changed: empty lists when the plan holds everything the file said.');
export type ImportReport = z.infer<typeof ImportReport>;

export const ImportFormat = z.enum(['mspdi']);

export const ProjectImport = z.object({
  format: ImportFormat.default('mspdi').describe('`mspdi`: Microsoft Project XML, as Microsoft Project saves it ("XML format (*.xml)").'),
  data: z.string().min(1).describe('The whole file, as text (at most the request body limit); already decoded, so its XML declaration\'s encoding is not applied (send the file as an `application/xml` body to have it decoded as it declares).'),
  name: ProjectName.optional().describe("Defaults to the file's project name (or title)."),
  key: ProjectKey.optional().describe('Derived from the name when omitted.'),
  workspaceId: Uuid.optional().describe("Defaults to the caller's personal workspace (or the key's workspace for a workspace-restricted key)."),
});

export const ProjectImportResult = NewProjectResult.extend({ report: ImportReport });

export const ExportFormat = z.enum(['mspdi', 'csv']);
export const ProjectExportQuery = z.object({
  format: ExportFormat.default('mspdi').describe('`mspdi`: Microsoft Project XML (opens in Microsoft Project and tools built on MPXJ); `csv`: one row per task, for spreadsheets.'),
});
