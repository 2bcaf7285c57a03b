import type { BuiltinTemplate } from './builtin-template.js';

/** The templates that ship with Gantry, in the order the template list shows them. */
export const builtinTemplates: readonly BuiltinTemplate[] = [];
