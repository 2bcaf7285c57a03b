import { z } from 'zod';
import { DateTime, DateTimeInput, Uuid } from '../common.js';
import { limits, locales } from '../limits.js';

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

/** A browser where the person is signed in (a web session), as the person sees it. */
export const WebSession = z.object({
  id: Uuid,
  userAgent: z.string().nullable().describe('The browser that signed in, as it named itself'),
  createdAt: DateTime.describe('When it signed in'),
  lastSeenAt: DateTime.describe('Its latest call, to within a few minutes'),
  expiresAt: DateTime,
  current: z.boolean().describe('The browser asking'),
});
export type WebSession = z.infer<typeof WebSession>;
export const WebSessionList = z.object({ sessions: z.array(WebSession) });

const Email = z.email().max(limits.emailMaxLength);
const NewPassword = z
  .string()
  .min(limits.passwordMinLength, `must have at least ${limits.passwordMinLength} characters`)
  .max(limits.passwordMaxLength, `must have at most ${limits.passwordMaxLength} characters`);
/** A single-use token from a link the service e-mailed. */
const MailedToken = z.string().min(1).max(200);

export const SignUp = z.object({
  email: Email,
  password: NewPassword,
  name: z.string().trim().min(1).max(limits.nameMaxLength).optional(),
  locale: z.enum(locales).optional(),
  next: z
    .string()
    .max(limits.urlMaxLength)
    .regex(/^\/(?![/\\])/, 'must be a path of the web app, such as /join/{token}')
    .optional()
    .describe('The page of the web app to open once the address is verified (e.g. the invite link that brought the person): the mailed link leads there after verifying.'),
});
export const SignUpAccepted = z.object({ verificationSent: z.literal(true) });
export const EmailVerification = z.object({ token: MailedToken });
export const SessionCreate = z.object({ email: z.string().max(limits.emailMaxLength), password: z.string().max(limits.passwordMaxLength) });
/** The signed-in person and the CSRF token to send as `X-CSRF-Token` with every unsafe request of this session. */
export const SessionResponse = z.object({ user: User, csrfToken: z.string() });
export const PasswordResetRequest = z.object({ email: z.string().max(limits.emailMaxLength) });
export const PasswordResetAccepted = z.object({ resetSent: z.literal(true) });
export const PasswordResetCompletion = z.object({ token: MailedToken, password: NewPassword });
export const MePatch = z.object({
  name: z.string().trim().min(1).max(limits.nameMaxLength).nullable().optional(),
  avatarUrl: z
    .url({ protocol: /^https$/, error: 'must be an https URL' })
    .max(limits.urlMaxLength)
    .nullable()
    .optional(),
  locale: z.enum(locales, { error: `must be one of ${locales.join(', ')}` }).optional(),
});
export type MePatch = z.infer<typeof MePatch>;

/** A personal API key as its owner sees it: never the key itself, which is shown once, at creation. */
export const ApiKey = z.object({
  id: Uuid,
  name: z.string().nullable(),
  prefix: z.string().describe('The first characters of the key (`gnt_AbCd`), to tell keys apart.'),
  scope: z.enum(['read', 'write']),
  workspaceId: Uuid.nullable().describe('Set when the key is restricted to one workspace.'),
  expiresAt: DateTime.nullable(),
  revokedAt: DateTime.nullable(),
  createdAt: DateTime,
  lastUsedAt: DateTime.nullable().describe('The latest call made with the key (from the audit log, written within seconds); null when never used.'),
});
export type ApiKey = z.infer<typeof ApiKey>;
export const ApiKeyCreate = z.object({
  name: z.string().trim().min(1).max(limits.nameMaxLength).optional(),
  scope: z.enum(['read', 'write']).describe('`read`, or `write` (which includes read).'),
  workspaceId: Uuid.nullable().optional().describe('Restrict the key to one workspace of yours.'),
  expiresAt: DateTimeInput.nullable().optional().describe('When the key stops working; never when omitted.'),
});
export const ApiKeyCreated = z.object({ key: z.string().describe('`gnt_…`: shown only in this answer; keep it.'), apiKey: ApiKey });
export const ApiKeyList = z.object({ apiKeys: z.array(ApiKey).describe('Newest first, revoked and expired ones included.') });
export const ApiKeyResponse = z.object({ apiKey: ApiKey });
