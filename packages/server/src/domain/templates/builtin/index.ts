import type { BuiltinTemplate } from './builtin-template.js';
import { construction } from './construction.js';
import { event } from './event.js';
import { marketingCampaign } from './marketing-campaign.js';
import { softwareRelease } from './software-release.js';

/** The templates that ship with Gantry, in the order the template list shows them. */
export const builtinTemplates: readonly BuiltinTemplate[] = [
  softwareRelease,
  marketingCampaign,
  construction,
  event,
];
