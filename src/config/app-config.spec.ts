import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, type Env } from './app-config';
import { PACKAGE_ROOT } from './package-root';

const KEY = 'k'.repeat(32);

/** The problems loadConfig lists for `env` (with a valid API_KEY unless `env` sets one). */
function problems(env: Env): string[] {
  try {
    loadConfig({ API_KEY: KEY, ...env });
    return [];
  } catch (error) {
    return error instanceof ConfigError ? error.problems : [`not a ConfigError: ${String(error)}`];
  }
}

describe('loadConfig', () => {
  it('defaults: embedded SQLite, port 8080, limits 100/300, no Redis, no encryption', () => {
    const config = loadConfig({ API_KEY: KEY });
    expect({
      port: config.http.port,
      host: config.http.host,
      database: config.database.kind,
      redis: config.redisUrl,
      rate: config.rateLimit.requestsPerSecond,
      burst: config.rateLimit.burstSize,
      timeout: config.http.requestTimeoutMs,
      grace: config.http.shutdownGraceMs,
      trustProxy: config.http.trustProxy,
      encryption: config.storageEncryptionKey,
      production: config.production,
      metrics: config.metrics,
    }).toEqual({
      port: 8080,
      host: '0.0.0.0',
      database: 'sqlite',
      redis: null,
      rate: 100,
      burst: 300,
      timeout: 30000,
      grace: 10000,
      trustProxy: false,
      encryption: null,
      production: false,
      metrics: { port: null, host: '127.0.0.1' },
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535'],
    [{ PORT: '65536' }, 'PORT must be a whole number from 0 to 65535'],
    [{ METRICS_PORT: 'abc' }, 'METRICS_PORT must be a whole number from 0 to 65535'],
    [{ METRICS_PORT: '65536' }, 'METRICS_PORT must be a whole number from 0 to 65535'],
    [{ METRICS_PORT: '-1' }, 'METRICS_PORT must be a whole number from 0 to 65535'],
    [{ METRICS_PORT: '8080' }, 'METRICS_PORT must differ from PORT'],
    [{ PORT: '9000', METRICS_PORT: '9000' }, 'METRICS_PORT must differ from PORT'],
    [{ BODY_MEMORY_LIMIT_MB: '0' }, 'BODY_MEMORY_LIMIT_MB must be a whole number from 1 to 65536'],
    [{ BODY_MEMORY_LIMIT_MB: '64MB' }, 'BODY_MEMORY_LIMIT_MB must be a whole number from 1 to 65536'],
    [{ RATE_LIMIT_BURST_SIZE: '0' }, 'RATE_LIMIT_BURST_SIZE must be a whole number from 1 to 10000000'],
    [{ RATE_LIMIT_REQUESTS_PER_SECOND: '-1' }, 'RATE_LIMIT_REQUESTS_PER_SECOND must be a positive number'],
    [{ RPC_BLOCK_PRIVATE_IPS: 'yes' }, 'RPC_BLOCK_PRIVATE_IPS must be true or false'],
    [{ DATABASE_URL: 'postgres://x/y' }, 'DATABASE_URL must start with sqlite: or mysql://'],
    [
      { DATABASE_URL: 'mysql://host-only' },
      'DATABASE_URL must look like mysql://user:password@host:3306/database',
    ],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL sqlite: needs a path'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL must start with redis:// or rediss://'],
    [
      { STORAGE_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') },
      'STORAGE_ENCRYPTION_KEY must be the base64 encoding of exactly 32 bytes',
    ],
    [{ TRUST_PROXY: 'a;b' }, 'TRUST_PROXY must be false, a hop count or a list of addresses/subnets'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ LOG_FORMAT: 'yaml' }, 'LOG_FORMAT must be one of json, pretty'],
    [{ RPC_ALLOWED_HOSTS: 'good.example.com,bad host' }, "RPC_ALLOWED_HOSTS has an invalid host 'bad host'"],
  ])('%j is refused, naming the variable', (env, message) => {
    expect(() => loadConfig({ API_KEY: KEY, ...env })).toThrow(message);
  });

  // The rules the rows above leave out, each refused with exactly one problem.
  it.each([
    [{ REQUEST_TIMEOUT_MS: '0' }, 'REQUEST_TIMEOUT_MS must be a whole number from 1 to 3600000'],
    [{ SHUTDOWN_GRACE_MS: '1.5' }, 'SHUTDOWN_GRACE_MS must be a whole number from 0 to 3600000'],
    [{ KEEP_ALIVE_TIMEOUT_MS: '999' }, 'KEEP_ALIVE_TIMEOUT_MS must be a whole number from 1000 to 3600000'],
    [{ WEBHOOK_TIMEOUT_MS: '600001' }, 'WEBHOOK_TIMEOUT_MS must be a whole number from 1 to 600000'],
    [{ WEBHOOK_MAX_ATTEMPTS: '101' }, 'WEBHOOK_MAX_ATTEMPTS must be a whole number from 1 to 100'],
    [{ WEBHOOK_RETRY_BASE_MS: '+5' }, 'WEBHOOK_RETRY_BASE_MS must be a whole number from 1 to 3600000'],
    [
      { WEBHOOK_PAUSE_AFTER_FAILURES: '-1' },
      'WEBHOOK_PAUSE_AFTER_FAILURES must be a whole number from 0 to 1000000',
    ],
    [
      { WEBHOOK_MAX_TARGETS_PER_RELAYER: '0' },
      'WEBHOOK_MAX_TARGETS_PER_RELAYER must be a whole number from 1 to 1000',
    ],
    [{ RPC_TIMEOUT_MS: '1e3' }, 'RPC_TIMEOUT_MS must be a whole number from 1 to 600000'],
    [
      { RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '0' },
      'RELAYER_HEALTH_CHECK_INTERVAL_SECONDS must be a positive number',
    ],
    [{ RELAYER_HEALTH_RETRY_SECONDS: '1e3' }, 'RELAYER_HEALTH_RETRY_SECONDS must be a positive number'],
    [
      { RATE_LIMIT_REQUESTS_PER_SECOND: '9'.repeat(400) },
      'RATE_LIMIT_REQUESTS_PER_SECOND must be a positive number',
    ],
    [{ CONFIG_STRICT: 'yes' }, 'CONFIG_STRICT must be true or false'],
    [{ RELAYER_HEALTH_CHECKS: 'on' }, 'RELAYER_HEALTH_CHECKS must be true or false'],
    [{ KEY_SERVICE_BLOCK_PRIVATE_IPS: 'no' }, 'KEY_SERVICE_BLOCK_PRIVATE_IPS must be true or false'],
    [
      { KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API: '2' },
      'KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API must be true or false',
    ],
    [{ WEBHOOK_ALLOWED_HOSTS: 'a_b.example' }, "WEBHOOK_ALLOWED_HOSTS has an invalid host 'a_b.example'"],
    [{ KEY_SERVICE_PRIVATE_HOSTS: 'vault/x' }, "KEY_SERVICE_PRIVATE_HOSTS has an invalid host 'vault/x'"],
    [{ KEY_SERVICE_ALLOWED_HOSTS: 'https://x' }, "KEY_SERVICE_ALLOWED_HOSTS has an invalid host 'https://x'"],
    [{ API_KEY: 'k'.repeat(31) }, 'API_KEY must be at least 32 characters long'],
    [
      { STORAGE_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64').replace('=', '') },
      'STORAGE_ENCRYPTION_KEY must be the base64 encoding of exactly 32 bytes',
    ],
    [
      { STORAGE_ENCRYPTION_KEY: Buffer.alloc(33).toString('base64') },
      'STORAGE_ENCRYPTION_KEY must be the base64 encoding of exactly 32 bytes',
    ],
  ])('%j is refused with one problem', (env, message) => {
    expect(problems(env)).toEqual([message]);
  });

  it('lists a problem between two variables with the others, and only between valid values', () => {
    expect(problems({ LOG_LEVEL: 'loud', PORT: '9000', METRICS_PORT: '9000' })).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      'METRICS_PORT must differ from PORT',
    ]);
    expect(problems({ PORT: '9000x', METRICS_PORT: '9000x' })).toEqual([
      'PORT must be a whole number from 0 to 65535',
      'METRICS_PORT must be a whole number from 0 to 65535',
    ]);
  });

  it('reads the other variables, ignoring case where the value is a word', () => {
    const storageKey = Buffer.alloc(32, 7).toString('base64');
    const config = loadConfig({
      API_KEY: KEY,
      LOG_LEVEL: 'DEBUG',
      LOG_FORMAT: 'Pretty',
      LOG_FILE: ' /tmp/relayer.log ',
      CONFIG_DIR: '/etc/relayer',
      CONFIG_FILE_NAME: 'relayer.json',
      CONFIG_STRICT: 'TRUE',
      DATA_DIR: '/var/lib/relayer',
      REDIS_URL: 'rediss://cache:6380',
      STORAGE_ENCRYPTION_KEY: storageKey,
      BODY_MEMORY_LIMIT_MB: '2',
      RATE_LIMIT_REQUESTS_PER_SECOND: '2.5',
      RATE_LIMIT_KEY_PREFIX: 'rl',
      KEY_SERVICE_PRIVATE_HOSTS: 'Vault.Internal.',
      KEY_SERVICE_ALLOWED_HOSTS: 'vault.example.com',
      KEY_SERVICE_AMBIENT_CREDENTIALS_IN_API: '1',
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_MAX_TARGETS_PER_RELAYER: '20',
      RELAYER_HEALTH_CHECKS: 'False',
      RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '0.5',
    });
    expect({
      log: config.log,
      configFile: config.configFile,
      configStrict: config.configStrict,
      dataDir: config.dataDir,
      redis: config.redisUrl,
      encryption: config.storageEncryptionKey,
      bodyMemory: config.http.bodyMemoryLimitBytes,
      rateLimit: config.rateLimit,
      keyServicePolicy: config.keyServiceUrlPolicy,
      keyServices: config.keyServices,
      webhooks: config.webhooks,
      healthChecks: config.healthChecks,
    }).toEqual({
      log: { level: 'debug', format: 'pretty', file: '/tmp/relayer.log' },
      configFile: '/etc/relayer/relayer.json',
      configStrict: true,
      dataDir: '/var/lib/relayer',
      redis: 'rediss://cache:6380',
      encryption: storageKey,
      bodyMemory: 2 * 1024 * 1024,
      rateLimit: { requestsPerSecond: 2.5, burstSize: 300, keyPrefix: 'rl' },
      keyServicePolicy: {
        allowedHosts: ['vault.internal'],
        blockPrivateIps: false,
        privateIpsVariable: 'KEY_SERVICE_BLOCK_PRIVATE_IPS',
      },
      keyServices: { vaultHosts: ['vault.example.com'], ambientCredentialsInApi: true },
      webhooks: {
        timeoutMs: 5000,
        maxAttempts: 3,
        retryBaseMs: 5000,
        pauseAfterFailures: 50,
        maxTargetsPerRelayer: 20,
      },
      healthChecks: { enabled: false, intervalSeconds: 0.5, retrySeconds: 10, rpcTimeoutMs: 5000 },
    });
    expect(loadConfig({ API_KEY: KEY, CONFIG_FILE: '/srv/c.json', CONFIG_DIR: '/etc/x' }).configFile).toBe(
      '/srv/c.json',
    );
  });

  it('without CONFIG_FILE, CONFIG_DIR, CONFIG_FILE_NAME and ./config/config.json: the shipped catalogue', () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-no-config-'));
    const cwd = process.cwd();
    process.chdir(elsewhere);
    try {
      const shipped = path.join(PACKAGE_ROOT, 'config', 'config.json');
      expect(fs.existsSync(shipped)).toBe(true);
      expect(loadConfig({ API_KEY: KEY }).configFile).toBe(shipped);
      expect(loadConfig({ API_KEY: KEY, CONFIG_DIR: 'config' }).configFile).toBe(
        path.join(elsewhere, 'config', 'config.json'),
      );
      expect(loadConfig({ API_KEY: KEY, CONFIG_FILE_NAME: 'config.json' }).configFile).toBe(
        path.join(elsewhere, 'config', 'config.json'),
      );
      fs.mkdirSync(path.join(elsewhere, 'config'));
      fs.writeFileSync(path.join(elsewhere, 'config', 'config.json'), '{}');
      expect(loadConfig({ API_KEY: KEY }).configFile).toBe(path.join(elsewhere, 'config', 'config.json'));
    } finally {
      process.chdir(cwd);
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it.each<[string, boolean | number | string]>([
    ['FALSE', false],
    ['false', false],
    ['0', 0],
    ['loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
  ])('TRUST_PROXY=%j is %j', (value, trustProxy) => {
    expect(loadConfig({ API_KEY: KEY, TRUST_PROXY: value }).http.trustProxy).toBe(trustProxy);
  });

  it.each<[string, boolean | number | string]>([
    ['2', 2],
    ['10.0.0.0/8,2001:db8::/32', '10.0.0.0/8,2001:db8::/32'],
    [
      '192.168.0.0/255.255.0.0, uniquelocal, 203.0.113.7',
      '192.168.0.0/255.255.0.0, uniquelocal, 203.0.113.7',
    ],
  ])('TRUST_PROXY=%j (a hop count or subnets as Express takes them) is %j', (value, trustProxy) => {
    expect(loadConfig({ API_KEY: KEY, TRUST_PROXY: value }).http.trustProxy).toBe(trustProxy);
  });

  // Express refuses these only when the application is built: the start names the variable instead.
  it.each(['10.0.0.0/33', '2001:db8::/129', 'proxy.example.com', '10.0.0.0/8/1', 'loopback,', '10.0.0.0/8;'])(
    'refuses TRUST_PROXY=%j, naming it',
    (value) => {
      expect(() => loadConfig({ API_KEY: KEY, TRUST_PROXY: value })).toThrow(
        'TRUST_PROXY must be false, a hop count or a list of addresses/subnets',
      );
    },
  );

  // `true` was accepted (Express's "trust every hop"): any client could then claim any address.
  it.each(['true', 'TRUE', 'True', ' true '])(
    'refuses TRUST_PROXY=%j, naming it and asking for a hop count or the proxies’ CIDRs',
    (value) => {
      expect(problems({ TRUST_PROXY: value })).toEqual([
        "TRUST_PROXY must be a hop count or the proxies' addresses/CIDRs, not true: trusting every hop lets any client claim any address",
      ]);
    },
  );

  // Lists that trust every address are `true` by another name (a /0 crashed the start unnamed).
  it.each([
    '0.0.0.0/0',
    '::/0',
    '10.0.0.0/8, 0.0.0.0/0',
    '0.0.0.0/1,128.0.0.0/1',
    '0.0.0.0/0.0.0.0',
    '::/1, 8000::/1',
  ])('refuses TRUST_PROXY=%j, which trusts every address, naming it', (value) => {
    expect(problems({ TRUST_PROXY: value })).toEqual([
      "TRUST_PROXY must be a hop count or the proxies' addresses/CIDRs, not every address: trusting every hop lets any client claim any address",
    ]);
  });

  it('lists every problem at once and never the values', () => {
    const secretish = 'mysql://user:hunter2@db';
    try {
      loadConfig({ NODE_ENV: 'production', PORT: 'x', DATABASE_URL: secretish });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        'DATABASE_URL must look like mysql://user:password@host:3306/database',
        'PORT must be a whole number from 0 to 65535',
        'API_KEY is required with NODE_ENV=production (at least 32 characters)',
      ]);
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it('reads host lists, booleans and proxy settings', () => {
    const config = loadConfig({
      API_KEY: KEY,
      RPC_ALLOWED_HOSTS: ' Rpc.Example.com., *.infura.io ',
      WEBHOOK_BLOCK_PRIVATE_IPS: 'TRUE',
      TRUST_PROXY: '2',
      DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/db',
    });
    expect({
      rpc: config.rpcUrlPolicy,
      webhook: config.webhookUrlPolicy,
      trust: config.http.trustProxy,
      db: config.database,
    }).toEqual({
      rpc: {
        allowedHosts: ['rpc.example.com', '*.infura.io'],
        blockPrivateIps: false,
        privateIpsVariable: 'RPC_BLOCK_PRIVATE_IPS',
      },
      webhook: { allowedHosts: [], blockPrivateIps: true, privateIpsVariable: 'WEBHOOK_BLOCK_PRIVATE_IPS' },
      trust: 2,
      db: { kind: 'mysql', url: 'mysql://u:p@127.0.0.1:3306/db' },
    });
  });

  // docs/reference/hardening.md: private addresses are refused in production unless the operator says otherwise.
  it.each<[Record<string, string>, [boolean, boolean]]>([
    [{}, [false, false]],
    [{ NODE_ENV: 'development' }, [false, false]],
    [{ NODE_ENV: 'test' }, [false, false]],
    [{ NODE_ENV: 'production' }, [true, true]],
    [{ NODE_ENV: 'production', RPC_BLOCK_PRIVATE_IPS: 'false' }, [false, true]],
    [{ NODE_ENV: 'production', WEBHOOK_BLOCK_PRIVATE_IPS: '0' }, [true, false]],
    [{ NODE_ENV: 'production', RPC_BLOCK_PRIVATE_IPS: '', WEBHOOK_BLOCK_PRIVATE_IPS: ' ' }, [true, true]],
    [
      { NODE_ENV: 'development', RPC_BLOCK_PRIVATE_IPS: 'true', WEBHOOK_BLOCK_PRIVATE_IPS: '1' },
      [true, true],
    ],
  ])('%j blocks private addresses for [RPC, webhooks]: %j', (env, blocked) => {
    const config = loadConfig({ API_KEY: KEY, ...env });
    expect([config.rpcUrlPolicy.blockPrivateIps, config.webhookUrlPolicy.blockPrivateIps]).toEqual(blocked);
  });

  it('names in each policy the variable that allows private addresses', () => {
    const config = loadConfig({ API_KEY: KEY, NODE_ENV: 'production' });
    expect([config.rpcUrlPolicy.privateIpsVariable, config.webhookUrlPolicy.privateIpsVariable]).toEqual([
      'RPC_BLOCK_PRIVATE_IPS',
      'WEBHOOK_BLOCK_PRIVATE_IPS',
    ]);
  });

  it.each([
    [{ METRICS_PORT: '9464' }, { port: 9464, host: '127.0.0.1' }],
    [
      { METRICS_PORT: ' 9464 ', METRICS_HOST: '0.0.0.0' },
      { port: 9464, host: '0.0.0.0' },
    ],
    [{ METRICS_PORT: '0' }, { port: 0, host: '127.0.0.1' }],
    [
      { PORT: '0', METRICS_PORT: '0' },
      { port: 0, host: '127.0.0.1' },
    ],
    [
      { METRICS_PORT: '', METRICS_HOST: '0.0.0.0' },
      { port: null, host: '0.0.0.0' },
    ],
  ])('metrics listener %j → %j', (env, metrics) => {
    expect(loadConfig({ API_KEY: KEY, ...env }).metrics).toEqual(metrics);
  });

  it('keeps a frozen snapshot of the environment for the catalogue secrets, unaffected by later changes', () => {
    const env: Record<string, string | undefined> = { API_KEY: KEY, SIGNER_KEY: 'at-start' };
    const config = loadConfig(env);
    env.SIGNER_KEY = 'changed later';
    env.ADDED_LATER = 'x';
    expect(config.secretsEnv).toEqual({ API_KEY: KEY, SIGNER_KEY: 'at-start' });
    expect(Object.isFrozen(config.secretsEnv)).toBe(true);
  });
});
