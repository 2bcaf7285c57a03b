import { errorCatalogue, limits, type ErrorCode, type FieldProblem } from '@gantry/contract';

/**
 * An error meant for the caller: a stable code from the catalogue, a safe message and
 * optional details. Adapters map it to their protocol in one place each; anything that
 * is not an AppError is a bug and is reported as `server_error` without its message.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return errorCatalogue[this.code].status;
  }
}

/** 400 listing the problems: the first `errorFieldsMax` of them, and how many more there were. */
export function invalid(fields: FieldProblem[]): AppError {
  const listed = fields.slice(0, limits.errorFieldsMax);
  const omitted = fields.length - listed.length;
  const message = listed.map((field) => `${field.path}: ${field.message}`).join('; ') + (omitted > 0 ? `; and ${omitted} more` : '');
  return new AppError('invalid_request', message, omitted > 0 ? { fields: listed, fieldsOmitted: omitted } : { fields: listed });
}

export function notFound(what = 'resource'): AppError {
  return new AppError('not_found', `${what} not found`);
}

export type ForbiddenReason = 'insufficient_scope' | 'insufficient_role' | 'workspace_restricted' | 'destructive' | 'session_required' | 'invite_for_another_email';

export function forbidden(reason: ForbiddenReason, message: string): AppError {
  return new AppError('forbidden', message, { reason });
}

export function conflict(message: string, fields?: FieldProblem[]): AppError {
  return new AppError('conflict', message, fields ? { fields } : undefined);
}

/** 403 `destructive`: API keys and OAuth tokens never delete projects, tasks or calendars (the web app does, for the person signed in). */
export function destructiveRefused(): AppError {
  return forbidden('destructive', 'API keys and apps cannot delete: projects, tasks and calendars are deleted by the person signed in, in the web app');
}
