import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { databaseUrl } from './database-url';
import { parseHostList } from './host-list';
import { SHIPPED_CONFIG_FILE } from './package-root';
import { coversEveryAddress } from './cidr';
import { issueLine } from './zod-issues';

export interface UrlPolicyConfig {
  readonly allowedHosts: string[];
  readonly blockPrivateIps: boolean;
  readonly privateIpsVariable: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const DEFAULT_DATABASE_URL = 'sqlite:./data/relayer.sqlite';

/** Names the variable and what is wrong, never its value. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

// The rules: a message follows the variable's name (ConfigError puts it first) and never shows the value.
const text = z.string();
const rule = <T>(message: string, ok: (v: string) => boolean, to: (v: string) => T) =>
  text.refine(ok, message).transform(to);
function int(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return rule(message, (v) => /^\d+$/.test(v) && +v >= min && +v <= max, Number);
}
const positive = rule(
  'must be a positive number',
  (v) => /^\d+(\.\d+)?$/.test(v) && isFinite(+v) && +v > 0,
  Number,
);
const bool = z.stringbool({ truthy: ['true', '1'], falsy: ['false', '0'], error: 'must be true or false' });
const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  text.toLowerCase().pipe(z.enum(values, { error: `must be one of ${values.join(', ')}` }));
const host = text.regex(/^(\*\.)?[a-z0-9.:[\]-]+$/, {
  error: (i) => `has an invalid host '${String(i.input)}'`,
});
// A trailing dot is dropped the way the URL policy compares hosts.
const hosts = text.transform((v) => parseHostList(v).map((h) => h.replace(/\.$/, ''))).pipe(z.array(host));

/**
 * proxy-addr's names, addresses and subnets (a prefix length, or an IPv4 netmask): anything else
 * Express would refuse only when the application is built.
 */
const PROXY_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);
function isTrustProxy(value: string): boolean {
  if (/^(false|\d+)$/i.test(value)) return true;
  return value.split(',').every((item) => {
    const [address, mask, extra] = item.trim().split('/');
    const version = isIP(address);
    if (PROXY_NAMES.has(item.trim())) return true;
    if (version === 0 || extra !== undefined) return false;
    if (mask === undefined) return true;
    const bits = version === 4 ? 32 : 128;
    return (/^\d{1,3}$/.test(mask) && +mask <= bits) || (version === 4 && isIP(mask) === 4);
  });
}

/** An element of a TRUST_PROXY list as a CIDR: an IPv4 netmask (`/255.255.0.0`) as its prefix length. */
function asCidr(item: string): string {
  const [address, netmask] = item.trim().split('/');
  if (netmask === undefined || isIP(netmask) !== 4) return item.trim();
  const bits = netmask
    .split('.')
    .reduce((n, octet) => n + (Number(octet).toString(2).match(/1/g)?.length ?? 0), 0);
  return `${address}/${bits}`;
}

/**
 * A hop count, proxy-addr's list, or false; never `true`, nor a list holding every address (every hop trusted): any client could then
 * name any address, past allowed_cidrs and its own failure budget (docs/configuration.md).
 */
const trustProxy = text.transform((v, ctx): false | number | string => {
  if (/^true$/i.test(v)) {
    ctx.addIssue(
      "must be a hop count or the proxies' addresses/CIDRs, not true: trusting every hop lets any client claim any address",
    );
  } else if (!isTrustProxy(v)) {
    ctx.addIssue('must be false, a hop count or a list of addresses/subnets');
  } else if (coversEveryAddress(v.split(',').map(asCidr))) {
    ctx.addIssue(
      "must be a hop count or the proxies' addresses/CIDRs, not every address: trusting every hop lets any client claim any address",
    );
  } else {
    return /^false$/i.test(v) ? false : /^\d+$/.test(v) ? Number(v) : v;
  }
  return z.NEVER;
});

/** A URL the service or a browser goes to: https, or http on a loopback address (127.0.0.0/8, [::1], localhost). */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;
const httpsUrl = text.transform((v, ctx): string => {
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    ctx.addIssue('must be a URL');
    return z.NEVER;
  }
  if (url.username || url.password || url.search || url.hash) {
    ctx.addIssue('must hold no credentials, query or fragment');
  } else if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname))) {
    ctx.addIssue('must be an https URL (http only on a loopback address)');
  } else {
    return v.replace(/\/+$/, '');
  }
  return z.NEVER;
});

/** SMTP_URL (docs/alerts.md#email): smtp:// or smtps://, credentials in it as the URL's user and password. */
const smtpUrl = text.transform((v, ctx): string => {
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    ctx.addIssue('must be an smtp:// or smtps:// URL');
    return z.NEVER;
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    ctx.addIssue('must be an smtp:// or smtps:// URL');
    return z.NEVER;
  }
  return v;
});

/** An e-mail address, or `Name <address>`: the sender of alert e-mail. */
const mailbox = text.regex(
  /^(?:[^<>\r\n]{0,100}<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
  'must be an e-mail address, or a name and <address>',
);

/** The whole environment: each variable with its rule and default (optional: null unless said otherwise). */
const ENV = z
  .object({
    NODE_ENV: text.optional(),
    DATABASE_URL: databaseUrl.prefault(DEFAULT_DATABASE_URL),
    LOG_LEVEL: oneOf(LOG_LEVELS).default('info'),
    LOG_FORMAT: oneOf(LOG_FORMATS).optional(),
    LOG_FILE: text.optional(),
    PORT: int(0, 65535).default(8080),
    HOST: text.default('0.0.0.0'),
    // Express's `trust proxy`: who may set the client address through X-Forwarded-For (docs/configuration.md).
    TRUST_PROXY: trustProxy.default(false),
    REQUEST_TIMEOUT_MS: int(1, 3_600_000).default(30_000),
    SHUTDOWN_GRACE_MS: int(0, 3_600_000).default(10_000),
    KEEP_ALIVE_TIMEOUT_MS: int(1000, 3_600_000).default(65_000),
    // docs/reference/hardening.md, "Bodies": every request body read and held at once, in all.
    BODY_MEMORY_LIMIT_MB: int(1, 65_536).default(64),
    // Required with NODE_ENV=production, else a random key (the superRefine below).
    API_KEY: text.min(32, 'must be at least 32 characters long').optional(),
    METRICS_PORT: int(0, 65535).optional(),
    METRICS_HOST: text.default('127.0.0.1'),
    REDIS_URL: text.regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
    // The reference system's names (docs/reference/config-file.md#11-where-the-file-is); CONFIG_FILE wins.
    CONFIG_FILE: text.optional(),
    CONFIG_DIR: text.default('config'),
    CONFIG_FILE_NAME: text.default('config.json'),
    // docs/reference/config-file.md: the keys the reference system ignores stop the start instead of a warning.
    CONFIG_STRICT: bool.default(false),
    DATA_DIR: text.default('data'),
    RATE_LIMIT_REQUESTS_PER_SECOND: positive.default(100),
    RATE_LIMIT_BURST_SIZE: int(1, 10_000_000).default(300),
    RATE_LIMIT_KEY_PREFIX: text.default('relayer-rl'),
    // docs/reference/hardening.md: in production no key may probe the internal network through us,
    // so the *_BLOCK_PRIVATE_IPS default to NODE_ENV=production.
    RPC_ALLOWED_HOSTS: hosts.default([]),
    RPC_BLOCK_PRIVATE_IPS: bool.optional(),
    WEBHOOK_ALLOWED_HOSTS: hosts.default([]),
    WEBHOOK_BLOCK_PRIVATE_IPS: bool.optional(),
    // Key services of hosted signers (docs/reference/kms-signers.md): the private hosts allowed.
    KEY_SERVICE_PRIVATE_HOSTS: hosts.default([]),
    KEY_SERVICE_BLOCK_PRIVATE_IPS: bool.optional(),
    // docs/reference/hardening.md#2-key-services: Azure vault hosts beyond the Key Vault domains, and
    // whether signers that use the service's own cloud identity may be created through the API too.
    KEY_SERVICE_ALLOWED_HOSTS: hosts.default([]),
    KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API: bool.default(false),
    // 32 bytes are 43 base64 digits and one '='.
    STORAGE_ENCRYPTION_KEY: text
      .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be the base64 encoding of exactly 32 bytes')
      .optional(),
    WEBHOOK_TIMEOUT_MS: int(1, 600_000).default(5000),
    WEBHOOK_MAX_ATTEMPTS: int(1, 100).default(10),
    WEBHOOK_RETRY_BASE_MS: int(1, 3_600_000).default(5000),
    // docs/reference/webhooks.md#10-pausing-a-target: 0 turns auto-pause off.
    WEBHOOK_PAUSE_AFTER_FAILURES: int(0, 1_000_000).default(50),
    // docs/reference/webhooks.md#65-how-many-targets-may-hear-a-relayer: what one relayer change may write and send.
    WEBHOOK_MAX_TARGETS_PER_RELAYER: int(1, 1000).default(50),
    RELAYER_HEALTH_CHECKS: bool.default(true),
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: positive.default(60),
    RELAYER_HEALTH_RETRY_SECONDS: positive.default(10),
    RPC_TIMEOUT_MS: int(1, 600_000).default(5000),
    // docs/access.md#signing-in-with-your-identity-provider: the four below go together.
    AUTH_OIDC_ISSUER: httpsUrl.optional(),
    AUTH_OIDC_CLIENT_ID: text.optional(),
    AUTH_OIDC_CLIENT_SECRET: text.optional(),
    // docs/access.md and docs/alerts.md: where people reach the service (sign-in, links in alerts).
    PUBLIC_URL: httpsUrl.optional(),
    // docs/alerts.md: the alert channels' senders.
    SMTP_URL: smtpUrl.optional(),
    ALERT_EMAIL_FROM: mailbox.optional(),
    PAGERDUTY_EVENTS_URL: httpsUrl.default('https://events.pagerduty.com/v2/enqueue'),
    AUTH_OIDC_NAME: text.max(100, 'must be at most 100 characters').default('your identity provider'),
    AUTH_OIDC_SCOPES: text
      .regex(/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/, 'must be scopes separated by spaces')
      .refine((v) => v.split(' ').includes('openid'), 'must include openid')
      .default('openid email profile'),
    AUTH_OIDC_GROUPS_CLAIM: text.max(100, 'must be at most 100 characters').default('groups'),
    AUTH_SESSION_IDLE_MINUTES: int(1, 10_080).default(30),
    AUTH_SESSION_MAX_HOURS: int(1, 8_760).default(12),
    CONSOLE_API_KEY_SIGN_IN: bool.default(true),
  })
  .superRefine(
    (env, ctx) => {
      if (env.NODE_ENV === 'production' && env.API_KEY === undefined) {
        const message = 'is required with NODE_ENV=production (at least 32 characters)';
        ctx.addIssue({ code: 'custom', path: ['API_KEY'], message });
      }
      // PUBLIC_URL alone gives alerts their links; the provider's three need it.
      const oidc = [
        'AUTH_OIDC_ISSUER',
        'AUTH_OIDC_CLIENT_ID',
        'AUTH_OIDC_CLIENT_SECRET',
        'PUBLIC_URL',
      ] as const;
      const given = oidc.filter(
        (name) => env[name] !== undefined || ctx.issues.some((i) => i.path?.[0] === name),
      );
      const provider = given.filter((name) => name !== 'PUBLIC_URL');
      if (provider.length > 0 && given.length < oidc.length) {
        for (const name of oidc.filter((n) => !given.includes(n))) {
          const message = `is required with ${given.join(', ')} (sign-in with an identity provider)`;
          ctx.addIssue({ code: 'custom', path: [name], message });
        }
      }
      if (env.SMTP_URL !== undefined && env.ALERT_EMAIL_FROM === undefined) {
        const message = 'is required with SMTP_URL (the sender of alert e-mail)';
        ctx.addIssue({ code: 'custom', path: ['ALERT_EMAIL_FROM'], message });
      }
      const ports = !ctx.issues.some((i) => i.path?.[0] === 'PORT' || i.path?.[0] === 'METRICS_PORT');
      if (ports && env.METRICS_PORT && env.METRICS_PORT === env.PORT) {
        ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT' });
      }
    },
    // Also when a variable was refused, to list every problem at once.
    { when: () => true },
  );

/** Read once from the environment and validated at start: nothing else reads process.env. */
export type AppConfig = ReturnType<typeof loadConfig>;

/**
 * CONFIG_FILE, else CONFIG_DIR/CONFIG_FILE_NAME; with none of the three set and no ./config/config.json,
 * the catalogue shipped in the package, as `relayer-service` and createApp alike (docs/extending.md).
 */
function configFilePath(
  e: { CONFIG_FILE?: string; CONFIG_DIR: string; CONFIG_FILE_NAME: string },
  given: Record<string, string | undefined>,
): string {
  const file = path.resolve(e.CONFIG_FILE ?? path.join(e.CONFIG_DIR, e.CONFIG_FILE_NAME));
  const named = ['CONFIG_FILE', 'CONFIG_DIR', 'CONFIG_FILE_NAME'].some((name) => given[name] !== undefined);
  return named || fs.existsSync(file) ? file : SHIPPED_CONFIG_FILE;
}

/** docs/access.md#signing-in-with-your-identity-provider: null when no identity provider is configured. */
function signInConfig(e: z.infer<typeof ENV>) {
  const sessions = {
    idleMs: e.AUTH_SESSION_IDLE_MINUTES * 60_000,
    maxMs: e.AUTH_SESSION_MAX_HOURS * 3_600_000,
  };
  const oidc =
    e.AUTH_OIDC_ISSUER && e.AUTH_OIDC_CLIENT_ID && e.AUTH_OIDC_CLIENT_SECRET && e.PUBLIC_URL
      ? {
          issuer: e.AUTH_OIDC_ISSUER,
          clientId: e.AUTH_OIDC_CLIENT_ID,
          clientSecret: e.AUTH_OIDC_CLIENT_SECRET,
          publicUrl: e.PUBLIC_URL,
          name: e.AUTH_OIDC_NAME,
          scopes: e.AUTH_OIDC_SCOPES,
          groupsClaim: e.AUTH_OIDC_GROUPS_CLAIM,
        }
      : null;
  return { oidc, sessions, consoleApiKeySignIn: e.CONSOLE_API_KEY_SIGN_IN };
}

/** docs/reference/running.md#1-start-up; throws ConfigError listing all problems. */
export function loadConfig(env: Env) {
  const blankless = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v?.trim() || undefined]));
  const { data: e, error } = ENV.safeParse(blankless);
  // A message names the variable alone: an item of a list names itself (`has an invalid host 'x'`).
  if (error)
    throw new ConfigError(error.issues.map(({ path, message }) => issueLine(path.slice(0, 1), message)));
  const production = e.NODE_ENV === 'production';
  const policy = (prefix: 'RPC' | 'WEBHOOK' | 'KEY_SERVICE', allowedHosts: string[]): UrlPolicyConfig => {
    const privateIpsVariable = `${prefix}_BLOCK_PRIVATE_IPS` as const;
    return { allowedHosts, blockPrivateIps: e[privateIpsVariable] ?? production, privateIpsVariable };
  };
  const auth = { apiKey: e.API_KEY ?? randomBytes(32).toString('base64url'), generated: !e.API_KEY };
  return {
    production,
    http: {
      port: e.PORT,
      host: e.HOST,
      trustProxy: e.TRUST_PROXY,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      bodyLimitBytes: 1024 * 1024,
      bodyMemoryLimitBytes: e.BODY_MEMORY_LIMIT_MB * 1024 * 1024,
    },
    auth,
    database: e.DATABASE_URL,
    metrics: { port: e.METRICS_PORT ?? null, host: e.METRICS_HOST },
    redisUrl: e.REDIS_URL ?? null,
    configFile: configFilePath(e, blankless),
    configStrict: e.CONFIG_STRICT,
    dataDir: path.resolve(e.DATA_DIR),
    rateLimit: {
      requestsPerSecond: e.RATE_LIMIT_REQUESTS_PER_SECOND,
      burstSize: e.RATE_LIMIT_BURST_SIZE,
      keyPrefix: e.RATE_LIMIT_KEY_PREFIX,
    },
    rpcUrlPolicy: policy('RPC', e.RPC_ALLOWED_HOSTS),
    webhookUrlPolicy: policy('WEBHOOK', e.WEBHOOK_ALLOWED_HOSTS),
    keyServiceUrlPolicy: policy('KEY_SERVICE', e.KEY_SERVICE_PRIVATE_HOSTS),
    keyServices: {
      vaultHosts: e.KEY_SERVICE_ALLOWED_HOSTS,
      ambientCredentialsInApi: e.KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API,
    },
    storageEncryptionKey: e.STORAGE_ENCRYPTION_KEY ?? null,
    secretsEnv: Object.freeze({ ...env }),
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      pauseAfterFailures: e.WEBHOOK_PAUSE_AFTER_FAILURES,
      maxTargetsPerRelayer: e.WEBHOOK_MAX_TARGETS_PER_RELAYER,
    },
    // docs/alerts.md: SMTP_URL holds a password; it is never logged.
    alerts: {
      publicUrl: e.PUBLIC_URL ?? null,
      smtpUrl: e.SMTP_URL ?? null,
      emailFrom: e.ALERT_EMAIL_FROM ?? null,
      pagerDutyEventsUrl: e.PAGERDUTY_EVENTS_URL,
    },
    healthChecks: {
      enabled: e.RELAYER_HEALTH_CHECKS,
      intervalSeconds: e.RELAYER_HEALTH_CHECK_INTERVAL_SECONDS,
      retrySeconds: e.RELAYER_HEALTH_RETRY_SECONDS,
      rpcTimeoutMs: e.RPC_TIMEOUT_MS,
    },
    signIn: signInConfig(e),
    log: { level: e.LOG_LEVEL, file: e.LOG_FILE ?? null, format: e.LOG_FORMAT ?? null },
  } as const;
}
