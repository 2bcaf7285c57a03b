import type { BuiltinTemplate } from './builtin-template.js';
import { websiteRedesign } from './website-redesign.js';
import { productLaunch } from './product-launch.js';
import { officeMove } from './office-move.js';
import { hiring } from './hiring.js';

/** The templates that ship with Gantry, in the order the template list shows them. */
export const builtinTemplates: readonly BuiltinTemplate[] = [
  websiteRedesign,
  productLaunch,
  officeMove,
  hiring,
];
