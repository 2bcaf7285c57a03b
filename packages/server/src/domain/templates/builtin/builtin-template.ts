import type { Locale } from '@gantry/contract';

/** One task of a built-in template, in outline order (a phase before its tasks). */
export interface BuiltinTemplateTask<Ref extends string = string> {
  ref: Ref;
  /** The phase (summary) this task belongs to; omitted at the top level. */
  parent?: Ref;
  /** Working days; omitted for phases (their span is rolled up), 0 for milestones. */
  days?: number;
}

export interface BuiltinTemplateLink<Ref extends string = string> {
  from: Ref;
  to: Ref;
  /** Default `FS`. */
  type?: 'FS' | 'SS' | 'FF' | 'SF';
  /** Working days; negative = lead. Default 0. */
  lagDays?: number;
}

/** The texts of a template in one language: its name, description and every task's name. */
export interface BuiltinTemplateTexts<Ref extends string = string> {
  name: string;
  description: string;
  tasks: Record<Ref, string>;
}

/**
 * A template that ships with Gantry: the plan's shape once, its texts in every language
 * of the service (the type makes a missing language or task name a compile error).
 */
export interface BuiltinTemplate<Ref extends string = string> {
  /** The id is `builtin:<slug>`. */
  slug: string;
  tasks: readonly BuiltinTemplateTask<Ref>[];
  links: readonly BuiltinTemplateLink<Ref>[];
  texts: Record<Locale, BuiltinTemplateTexts<Ref>>;
}

/** Declares a template with its task refs inferred, so texts must name exactly those tasks. */
export function defineTemplate<const Ref extends string>(template: {
  slug: string;
  tasks: readonly BuiltinTemplateTask<Ref>[];
  links: readonly BuiltinTemplateLink<NoInfer<Ref>>[];
  texts: Record<Locale, BuiltinTemplateTexts<NoInfer<Ref>>>;
}): BuiltinTemplate {
  return template as BuiltinTemplate;
}
