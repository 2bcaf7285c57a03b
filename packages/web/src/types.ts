import type * as contract from '@gantry/contract';
import type { z } from 'zod';

// The API's shapes, taken from the contract's schemas (types only: no schema code ships to the browser).
export type User = z.infer<typeof contract.User>;
export type Project = z.infer<typeof contract.Project>;
export type ProjectListItem = z.infer<typeof contract.ProjectListItem>;
export type FullProject = z.infer<typeof contract.FullProject>;
export type PlanTask = z.infer<typeof contract.PlanTask>;
export type Dependency = z.infer<typeof contract.Dependency>;
export type Conflict = z.infer<typeof contract.Conflict>;
export type WriteResult = z.infer<typeof contract.WriteResult>;
export type Workspace = z.infer<typeof contract.Workspace>;
export type TaskPatch = z.input<typeof contract.TaskPatch>;
export type ConstraintKind = z.infer<typeof contract.ConstraintKind>;
export type Member = z.infer<typeof contract.Member>;
export type Comment = z.infer<typeof contract.Comment>;
export type Baseline = z.infer<typeof contract.BaselineWithTasks>;
export type ApiKey = z.infer<typeof contract.ApiKey>;
export type Webhook = z.infer<typeof contract.Webhook>;
export type Delivery = z.infer<typeof contract.Delivery>;
export type OAuthGrant = z.infer<typeof contract.OAuthGrant>;
export type Invite = z.infer<typeof contract.Invite>;
export type ProjectRole = z.infer<typeof contract.ProjectRole>;
export type Template = z.infer<typeof contract.Template>;
export type ProjectVersion = z.infer<typeof contract.Version>;
export type ImportReport = z.infer<typeof contract.ImportReport>;
export type Calendar = z.infer<typeof contract.Calendar>;
export type Forecast = z.infer<typeof contract.Forecast>;
