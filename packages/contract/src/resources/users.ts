import { z } from 'zod';
import { Uuid } from '../common.js';

export const User = z.object({
  id: Uuid,
  email: z.email(),
  name: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  locale: z.string(),
  emailVerified: z.boolean(),
});
export type User = z.infer<typeof User>;

export const MeResponse = z.object({ user: User });
