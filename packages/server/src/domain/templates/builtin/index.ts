import type { BuiltinTemplate } from './builtin-template.js';
import { construction } from './construction.js';
import { event } from './event.js';
import { hiring } from './hiring.js';
import { marketingCampaign } from './marketing-campaign.js';
import { officeMove } from './office-move.js';
import { productLaunch } from './product-launch.js';
import { softwareRelease } from './software-release.js';
import { websiteRedesign } from './website-redesign.js';

/** The templates that ship with Gantry, in the order the template list shows them. */
export const builtinTemplates: readonly BuiltinTemplate[] = [
  softwareRelease,
  marketingCampaign,
  construction,
  event,
  websiteRedesign,
  productLaunch,
  officeMove,
  hiring,
];
