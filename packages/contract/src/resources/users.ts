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

/** An app a person allowed to act for them (an OAuth grant), as the person sees it. */
export const OAuthGrant = z.object({
  id: z.string(),
  clientId: z.string().describe('The app: its registered client id, or the URL of its metadata document'),
  clientName: z.string(),
  scopes: z.array(z.enum(['service:read', 'service:write'])),
  resources: z.array(z.string()).describe('Where its tokens work: `{base_url}/api`, `{base_url}/mcp`'),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
});
export type OAuthGrant = z.infer<typeof OAuthGrant>;
export const OAuthGrantList = z.object({ grants: z.array(OAuthGrant) });
export const OAuthGrantRevoked = z.object({ id: z.string(), revoked: z.literal(true) });
