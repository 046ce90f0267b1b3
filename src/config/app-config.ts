import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseDatabaseUrl } from './database-url';
import { parseHostList } from './host-list';

export type DatabaseConfig =
  { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'mysql'; readonly url: string };

export interface UrlPolicyConfig {
  readonly allowedHosts: string[];
  readonly blockPrivateIps: boolean;
  readonly privateIpsVariable: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const MIN_API_KEY_LENGTH = 32;
export const DEFAULT_DATABASE_URL = 'sqlite:./data/relayer.sqlite';

/** Names the variable and what is wrong, never its value. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return Number(value);
  }

  positiveNumber(name: string, fallback: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(n) || n <= 0) {
      this.problems.push(`${name} must be a positive number`);
      return fallback;
    }
    return n;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    this.problems.push(`${name} must be true or false`);
    return fallback;
  }

  oneOf(name: string, values: readonly string[]): string | undefined {
    const value = this.raw(name)?.toLowerCase();
    if (value !== undefined && !values.includes(value)) {
      this.problems.push(`${name} must be one of ${values.join(', ')}`);
    }
    return value;
  }

  hostList(name: string): string[] {
    const value = this.raw(name);
    if (value === undefined) return [];
    // A trailing dot is dropped the way the URL policy compares hosts.
    const hosts = parseHostList(value).map((h) => h.replace(/\.$/, ''));
    for (const host of hosts) {
      if (!/^(\*\.)?[a-z0-9.:[\]-]+$/.test(host)) this.problems.push(`${name} has an invalid host '${host}'`);
    }
    return hosts;
  }
}

function readDatabaseUrl(reader: EnvReader): DatabaseConfig {
  try {
    return parseDatabaseUrl(reader.raw('DATABASE_URL') ?? DEFAULT_DATABASE_URL);
  } catch (error) {
    reader.problems.push((error as Error).message);
    return { kind: 'sqlite', path: ':memory:' };
  }
}

function parseTrustProxy(reader: EnvReader): boolean | number | string {
  const value = reader.raw('TRUST_PROXY');
  if (value === undefined || value.toLowerCase() === 'false') return false;
  if (value.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  if (/^[A-Za-z0-9.:/,\s-]+$/.test(value)) return value;
  reader.problems.push('TRUST_PROXY must be true, false, a hop count or a list of addresses/subnets');
  return false;
}

function parseStorageKey(reader: EnvReader): string | null {
  const value = reader.raw('STORAGE_ENCRYPTION_KEY');
  if (value === undefined) return null;
  const strictBase64 = /^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length % 4 === 0;
  if (!strictBase64 || Buffer.from(value, 'base64').length !== 32) {
    reader.problems.push('STORAGE_ENCRYPTION_KEY must be the base64 encoding of exactly 32 bytes');
    return null;
  }
  return value;
}

function parseApiKey(reader: EnvReader, production: boolean): { apiKey: string; generated: boolean } {
  const value = reader.raw('API_KEY');
  if (value === undefined) {
    if (production) {
      reader.problems.push(
        `API_KEY is required with NODE_ENV=production (at least ${MIN_API_KEY_LENGTH} characters)`,
      );
    }
    return { apiKey: randomBytes(32).toString('base64url'), generated: true };
  }
  if (value.length < MIN_API_KEY_LENGTH) {
    reader.problems.push(`API_KEY must be at least ${MIN_API_KEY_LENGTH} characters long`);
  }
  return { apiKey: value, generated: false };
}

function urlPolicy(reader: EnvReader, prefix: string, production: boolean): UrlPolicyConfig {
  return {
    allowedHosts: reader.hostList(`${prefix}_ALLOWED_HOSTS`),
    blockPrivateIps: reader.boolean(`${prefix}_BLOCK_PRIVATE_IPS`, production),
    privateIpsVariable: `${prefix}_BLOCK_PRIVATE_IPS`,
  };
}

/** Read once from the environment and validated at start: nothing else reads process.env. */
export type AppConfig = ReturnType<typeof loadConfig>;

/** docs/reference/running.md#1-start-up; throws ConfigError listing all problems. */
export function loadConfig(env: Env) {
  const reader = new EnvReader(env);
  const production = reader.raw('NODE_ENV') === 'production';
  const database = readDatabaseUrl(reader);
  const logLevel = reader.oneOf('LOG_LEVEL', LOG_LEVELS) ?? 'info';
  const logFormat = reader.oneOf('LOG_FORMAT', LOG_FORMATS) ?? null;
  const config = {
    production,
    http: {
      port: reader.integer('PORT', 8080, 0, 65535),
      host: reader.raw('HOST') ?? '0.0.0.0',
      trustProxy: parseTrustProxy(reader),
      requestTimeoutMs: reader.integer('REQUEST_TIMEOUT_MS', 30_000, 1, 3_600_000),
      shutdownGraceMs: reader.integer('SHUTDOWN_GRACE_MS', 10_000, 0, 3_600_000),
      keepAliveTimeoutMs: reader.integer('KEEP_ALIVE_TIMEOUT_MS', 65_000, 1000, 3_600_000),
      bodyLimitBytes: 1024 * 1024,
      // docs/reference/hardening.md, "Bodies": every request body read and held at once, in all.
      bodyMemoryLimitBytes: reader.integer('BODY_MEMORY_LIMIT_MB', 64, 1, 65_536) * 1024 * 1024,
    },
    auth: parseApiKey(reader, production),
    database,
    metrics: {
      port: reader.raw('METRICS_PORT') === undefined ? null : reader.integer('METRICS_PORT', 0, 0, 65535),
      host: reader.raw('METRICS_HOST') ?? '127.0.0.1',
    },
    redisUrl: reader.raw('REDIS_URL') ?? null,
    // The reference system's names (docs/reference/config-file.md#11-where-the-file-is).
    configFile: path.resolve(
      reader.raw('CONFIG_FILE') ??
        path.join(reader.raw('CONFIG_DIR') ?? 'config', reader.raw('CONFIG_FILE_NAME') ?? 'config.json'),
    ),
    // docs/reference/config-file.md: the keys the reference system ignores stop the start instead of a warning.
    configStrict: reader.boolean('CONFIG_STRICT', false),
    dataDir: path.resolve(reader.raw('DATA_DIR') ?? 'data'),
    rateLimit: {
      requestsPerSecond: reader.positiveNumber('RATE_LIMIT_REQUESTS_PER_SECOND', 100),
      burstSize: reader.integer('RATE_LIMIT_BURST_SIZE', 300, 1, 10_000_000),
      keyPrefix: reader.raw('RATE_LIMIT_KEY_PREFIX') ?? 'relayer-rl',
    },
    // docs/reference/hardening.md: in production no key may probe the internal network through us.
    rpcUrlPolicy: urlPolicy(reader, 'RPC', production),
    webhookUrlPolicy: urlPolicy(reader, 'WEBHOOK', production),
    // Key services of hosted signers (docs/reference/kms-signers.md): allowedHosts lists the private hosts allowed.
    keyServiceUrlPolicy: {
      allowedHosts: reader.hostList('KEY_SERVICE_PRIVATE_HOSTS'),
      blockPrivateIps: reader.boolean('KEY_SERVICE_BLOCK_PRIVATE_IPS', production),
      privateIpsVariable: 'KEY_SERVICE_BLOCK_PRIVATE_IPS' as string,
    },
    // docs/reference/hardening.md#2-key-services
    keyServices: {
      /** Azure vault hosts beyond the Key Vault domains. */
      vaultHosts: reader.hostList('KEY_SERVICE_ALLOWED_HOSTS'),
      /** Signers that use the service's own cloud identity, through the API too. */
      ambientCredentialsInApi: reader.boolean('KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API', false),
    },
    storageEncryptionKey: parseStorageKey(reader),
    secretsEnv: Object.freeze({ ...env }),
    webhooks: {
      timeoutMs: reader.integer('WEBHOOK_TIMEOUT_MS', 5000, 1, 600_000),
      maxAttempts: reader.integer('WEBHOOK_MAX_ATTEMPTS', 10, 1, 100),
      retryBaseMs: reader.integer('WEBHOOK_RETRY_BASE_MS', 5000, 1, 3_600_000),
    },
    healthChecks: {
      enabled: reader.boolean('RELAYER_HEALTH_CHECKS', true),
      intervalSeconds: reader.positiveNumber('RELAYER_HEALTH_CHECK_INTERVAL_SECONDS', 60),
      retrySeconds: reader.positiveNumber('RELAYER_HEALTH_RETRY_SECONDS', 10),
      rpcTimeoutMs: reader.integer('RPC_TIMEOUT_MS', 5000, 1, 600_000),
    },
    log: {
      level: logLevel as LogLevel,
      file: reader.raw('LOG_FILE') ?? null,
      format: logFormat as LogFormat | null,
    },
  } as const;
  if (config.redisUrl !== null && !/^rediss?:\/\//.test(config.redisUrl)) {
    reader.problems.push('REDIS_URL must start with redis:// or rediss://');
  }
  if (config.metrics.port !== null && config.metrics.port !== 0 && config.metrics.port === config.http.port) {
    reader.problems.push('METRICS_PORT must differ from PORT');
  }
  if (reader.problems.length > 0) throw new ConfigError(reader.problems);
  return config;
}
