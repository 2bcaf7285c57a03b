import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const flag = z
  .enum(['', '0', '1', 'true', 'false'])
  .optional()
  .transform((value) => value === '1' || value === 'true');

const digits = /^[0-9]+$/;

const positiveInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return fallback;
      const parsed = digits.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(parsed) || parsed <= 0) {
        ctx.addIssue({ code: 'custom', message: 'must be a positive whole number' });
        return z.NEVER;
      }
      return parsed;
    });

const EnvSchema = z.object({
  PORT: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return 3000;
      const port = digits.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        ctx.addIssue({ code: 'custom', message: 'must be a port number 0-65535 (0 = any free port)' });
        return z.NEVER;
      }
      return port;
    }),
  HOST: z.string().optional().default('127.0.0.1'),
  BASE_URL: z
    .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL such as https://gantry.example.com' })
    // Links are built by appending paths: a query or a fragment would end up in the middle of them.
    .refine((value) => !/[?#]/.test(value), 'must have no query (?) or fragment (#): links are built by appending paths to it')
    .optional(),
  DATA_DIR: z.string().optional().default('./data'),
  DATABASE_URL: z
    .string()
    // Every form pg reads: postgres:// and postgresql:// URLs, and socket:/path?db=… for a Unix socket.
    .regex(/^(postgres(ql)?:\/\/|socket:)/, 'must be a postgres:// URL or a socket: path (unset it to use the embedded SQLite store)')
    .optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  GANTRY_SERVE_WORKER: z
    .enum(['0', '1'], { message: 'must be 1 (serve also delivers webhooks and mail) or 0 (leave them to gantry worker)' })
    .optional()
    .transform((value) => value !== '0'),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().optional().default('Gantry <gantry@localhost>'),
  GANTRY_WEBHOOK_ALLOW_PRIVATE: flag,
  GANTRY_WEBHOOK_RETRY_DELAYS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return [0, 60, 300, 1800, 7200, 43200];
      const parts = value.split(',').map((part) => part.trim());
      const delays = parts.map((part) => (/^[0-9]+(\.[0-9]+)?$/.test(part) ? Number(part) : NaN));
      if (delays.some((delay) => !Number.isFinite(delay))) {
        ctx.addIssue({ code: 'custom', message: 'must be comma-separated seconds, e.g. 0,60,300' });
        return z.NEVER;
      }
      return delays;
    }),
  GANTRY_WEBHOOK_LEASE_SEC: positiveInt(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info'),
  GANTRY_RATE_LIMIT_READS: positiveInt(240),
  GANTRY_RATE_LIMIT_WRITES: positiveInt(60),
  GANTRY_RATE_LIMIT_SESSION_WRITES: positiveInt(600),
  GANTRY_METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{32,}$/, 'must be at least 32 characters without spaces, e.g. the output of openssl rand -hex 32')
    .optional(),
  GANTRY_TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return false as const;
      const parts = value.split(',').map((part) => part.trim());
      // Addresses or networks only: "trust every sender" would let any client choose its own address.
      const valid = parts.every((part) => {
        const [address, bits, ...rest] = part.split('/');
        const version = isIP(address ?? '');
        return version !== 0 && rest.length === 0 && (bits === undefined || (digits.test(bits) && Number(bits) <= (version === 4 ? 32 : 128)));
      });
      if (!valid) {
        ctx.addIssue({ code: 'custom', message: 'must be the comma-separated addresses or networks of your reverse proxies, e.g. 127.0.0.1,10.0.0.0/8' });
        return z.NEVER;
      }
      return parts;
    }),
});

/** `BASE_URL` when it is not set: the local address of the port. */
export function defaultBaseUrl(port: number): string {
  return `http://localhost:${port}`;
}

/** Everything the service reads from its environment, parsed once at start-up. */
export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Rate limits count in this Redis, shared by every node naming it; unset: in the database (PostgreSQL) or in memory (SQLite). */
  redisUrl: string | undefined;
  /** Whether `gantry serve` also runs the background work (webhook delivery, mail, retention) that `gantry worker` runs. */
  serveWorker: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  webhookAllowPrivate: boolean;
  webhookRetryDelaysSec: readonly number[];
  /** How long a worker holds a claimed delivery; a crashed worker's deliveries are sent again after it. */
  webhookLeaseSec: number;
  logLevel: string;
  /** Per key, OAuth grant or web session; a web session's writes have a budget of their own (a person at the keyboard undoing fifty steps). */
  rateLimits: { readsPerMinute: number; writesPerMinute: number; sessionWritesPerMinute: number };
  /** The reverse proxies whose `X-Forwarded-For` names the client's address (sign-in limits count per address); false: none. */
  trustProxy: readonly string[] | false;
  /** The bearer token a scraper sends to read `/metrics`; unset: `/metrics` is not served (404). */
  metricsToken: string | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment into a frozen Config. Lists every problem at once, each with
 * the variable it concerns; `process.env` is read nowhere else.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // An empty variable (`DATABASE_URL=` in an env file) means unset, for every variable alike.
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(set);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    baseUrl: (e.BASE_URL ?? defaultBaseUrl(e.PORT)).replace(/\/+$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    serveWorker: e.GANTRY_SERVE_WORKER,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    webhookAllowPrivate: e.GANTRY_WEBHOOK_ALLOW_PRIVATE,
    webhookRetryDelaysSec: Object.freeze(e.GANTRY_WEBHOOK_RETRY_DELAYS),
    webhookLeaseSec: e.GANTRY_WEBHOOK_LEASE_SEC,
    logLevel: e.LOG_LEVEL,
    rateLimits: Object.freeze({ readsPerMinute: e.GANTRY_RATE_LIMIT_READS, writesPerMinute: e.GANTRY_RATE_LIMIT_WRITES, sessionWritesPerMinute: e.GANTRY_RATE_LIMIT_SESSION_WRITES }),
    trustProxy: e.GANTRY_TRUST_PROXY && Object.freeze(e.GANTRY_TRUST_PROXY),
    metricsToken: e.GANTRY_METRICS_TOKEN,
  });
}
