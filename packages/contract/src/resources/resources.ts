import { z } from 'zod';
import { Uuid } from '../common.js';
import { limits } from '../limits.js';

/**
 * How much of a resource there is at once, in percent of one full-time person (Microsoft
 * Project's Max. Units): 300 is a team of three, 50 someone half-time.
 */
export const MaxUnitsPct = z
  .number()
  .int()
  .min(1)
  .max(limits.resourceMaxUnitsPct)
  .describe(
    'Percent of one full-time person there is at once (Max. Units): 100 one person, 300 a team of three, 50 someone half-time. Leveling keeps the resource\'s load within it.',
  );

const ResourceName = z.string().trim().min(1).max(limits.nameMaxLength);

export const Resource = z.object({
  id: Uuid,
  userId: Uuid.nullable().describe('The person the resource stands for; null for resources without an account (created here or by an import).'),
  name: z.string(),
  maxUnitsPct: MaxUnitsPct,
});
export type Resource = z.infer<typeof Resource>;

export const ResourceCreate = z.object({
  name: ResourceName.describe('E.g. "Crane", "Electricians", "Contractor".'),
  maxUnitsPct: MaxUnitsPct.default(100),
});
export type ResourceCreate = z.output<typeof ResourceCreate>;

export const ResourcePatch = z.object({
  name: ResourceName.optional().describe("The resource's name in this project (also a person's: it is their name here, not their profile's)."),
  maxUnitsPct: MaxUnitsPct.optional(),
});
export type ResourcePatch = z.output<typeof ResourcePatch>;

export const ResourceResponse = z.object({ resource: Resource });
export const ResourceList = z.object({ resources: z.array(Resource).describe('By name.') });
