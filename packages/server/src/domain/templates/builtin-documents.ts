import type { Locale, Template } from '@gantry/contract';
import { documentDurationDays } from '../exchange/schedule-document.js';
import { documentTask, type PlanDocument } from '../exchange/plan-document.js';
import type { BuiltinTemplate } from './builtin/builtin-template.js';
import { builtinTemplates } from './builtin/index.js';

/** Templates count in days; the engine in working minutes (8-hour days). */
const MINUTES_PER_DAY = 480;

export const builtinTemplateId = (template: BuiltinTemplate) => `builtin:${template.slug}`;

export function findBuiltinTemplate(id: string): BuiltinTemplate | undefined {
  return builtinTemplates.find((template) => builtinTemplateId(template) === id);
}

/** A built-in template as a plan starting on `startDate`, its texts in `locale`. */
export function builtinTemplateDocument(template: BuiltinTemplate, locale: Locale, startDate: string): PlanDocument {
  const texts = template.texts[locale];
  const phases = new Set(template.tasks.flatMap((task) => (task.parent ? [task.parent] : [])));
  return {
    name: texts.name,
    description: texts.description,
    startDate,
    scheduleFrom: 'forward',
    deadline: null,
    currency: 'USD',
    calendarRef: null,
    calendars: [],
    resources: [],
    tasks: template.tasks.map((task) =>
      documentTask({
        ref: task.ref,
        parentRef: task.parent ?? null,
        name: texts.tasks[task.ref]!,
        type: phases.has(task.ref) ? 'summary' : task.days === 0 ? 'milestone' : 'task',
        durationMin: (task.days ?? 0) * MINUTES_PER_DAY,
      }),
    ),
    dependencies: template.links.map((link) => ({
      predecessorRef: link.from,
      successorRef: link.to,
      type: link.type ?? 'FS',
      lagMin: (link.lagDays ?? 0) * MINUTES_PER_DAY,
    })),
    assignments: [],
    baselines: [],
  };
}

/** Any Monday: a built-in template's length in working days does not depend on where it starts. */
const referenceStart = '2026-01-05';
const durationDays = new Map<string, number>();

/** A built-in template as the template list shows it in `locale`; its length is computed once per process. */
export function presentBuiltinTemplate(template: BuiltinTemplate, locale: Locale): Template {
  const document = builtinTemplateDocument(template, locale, referenceStart);
  let days = durationDays.get(template.slug);
  if (days === undefined) {
    days = documentDurationDays(document);
    durationDays.set(template.slug, days);
  }
  return { id: builtinTemplateId(template), kind: 'builtin', name: document.name, description: document.description, taskCount: document.tasks.length, durationDays: days };
}
