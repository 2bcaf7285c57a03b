import type { Migration } from 'kysely';
import { initial } from './0001-initial.js';
import { planning } from './0002-planning.js';
import { webhooks } from './0003-webhooks.js';
import { taskSearch } from './0004-task-search.js';
import { oauth } from './0005-oauth.js';
import { webSessions } from './0006-web-sessions.js';
import { deletionAndInvites } from './0007-deletion-and-invites.js';
import { webhookActiveSince } from './0008-webhook-active-since.js';
import { calendars } from './0009-calendars.js';
import { projectVersions } from './0010-project-versions.js';
import { templates } from './0011-templates.js';
import { rateLimitWindows } from './0012-rate-limit-windows.js';
import { auditReadBursts } from './0013-audit-read-bursts.js';
import { resourceMaxUnits } from './0014-resource-max-units.js';
import { idempotencyFingerprintFormula } from './0015-idempotency-fingerprint-formula.js';
import { derivedValuesVersion } from './0016-derived-values-version.js';
import { durationEstimated } from './0017-duration-estimated.js';

/** Every migration, in order. Names sort by their number; never rename or edit a landed one. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-planning': planning,
  '0003-webhooks': webhooks,
  '0004-task-search': taskSearch,
  '0005-oauth': oauth,
  '0006-web-sessions': webSessions,
  '0007-deletion-and-invites': deletionAndInvites,
  '0008-webhook-active-since': webhookActiveSince,
  '0009-calendars': calendars,
  '0010-project-versions': projectVersions,
  '0011-templates': templates,
  '0012-rate-limit-windows': rateLimitWindows,
  '0013-audit-read-bursts': auditReadBursts,
  '0014-resource-max-units': resourceMaxUnits,
  '0015-idempotency-fingerprint-formula': idempotencyFingerprintFormula,
  '0016-derived-values-version': derivedValuesVersion,
  '0017-duration-estimated': durationEstimated,
};
