import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { secrets } from '../support/secrets';
import { PROJECT_ROOT, ServiceProcess, START_NODE_FLAGS } from '../support/service-process';
import { TEST_DB } from '../support/test-database';

// The embedded default is what a new user meets: these run the compiled service as a process,
// so they belong to the SQLite pass only.
const describeEmbedded = TEST_DB === 'sqlite' ? describe : describe.skip;

const CONFIG_FILE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'config.json');

describeEmbedded('the service as a process on the embedded default database', () => {
  const dirs: string[] = [];
  const workdir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-proc-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('starts with no DATABASE_URL and no database server, creates ./data/relayer.sqlite, keeps data across a restart', async () => {
    const cwd = workdir();
    const apiKey = secrets.add(randomBytes(32).toString('hex'));
    const service = new ServiceProcess(cwd, { API_KEY: apiKey, CONFIG_FILE });
    await service.start();
    try {
      await service.waitHealthy();
      expect(await (await service.fetch('/api/v1/health')).text()).toBe('OK');
      const created = await service.call('POST', '/api/v1/notifications', {
        id: 'kept-across-restart',
        url: 'https://hooks.example.com/kept',
      });
      expect(created.status).toBe(201);
    } finally {
      expect((await service.stop()).code).toBe(0);
    }
    expect(fs.existsSync(path.join(cwd, 'data', 'relayer.sqlite'))).toBe(true);

    const again = new ServiceProcess(cwd, { API_KEY: apiKey, CONFIG_FILE });
    await again.start();
    try {
      await again.waitHealthy();
      const res = await again.call('GET', '/api/v1/notifications/kept-across-restart');
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 200,
        body: {
          success: true,
          data: {
            id: 'kept-across-restart',
            type: 'webhook',
            url: 'https://hooks.example.com/kept',
            has_signing_key: false,
          },
          error: null,
        },
      });
    } finally {
      await again.stop();
    }
    expect(secrets.foundIn(again.log)).toEqual([]);
  });

  it('without API_KEY outside production: generates a key, shows it once on the terminal (never in LOG_FILE), and requires it', async () => {
    const cwd = workdir();
    const logFile = path.join(cwd, 'logs', 'service.log');
    const service = new ServiceProcess(cwd, { CONFIG_FILE, NODE_ENV: 'development', LOG_FILE: logFile });
    await service.start();
    try {
      await service.waitHealthy();
      const match = /^ {3}export KEY=([A-Za-z0-9_-]{43})$/m.exec(service.log);
      expect(match).not.toBeNull();
      const key = (match as RegExpExecArray)[1];
      expect(service.log.split('\n').filter((line) => line.includes(key))).toHaveLength(1);
      expect(service.log).toContain(
        `curl -H "Authorization: Bearer $KEY" http://localhost:${service.port}/api/v1/relayers`,
      );
      expect(service.log).toContain(`\n   http://localhost:${service.port}/console/\n`);
      expect((await service.fetch('/api/v1/notifications')).status).toBe(401);
      expect(
        (await service.fetch('/api/v1/notifications', { headers: { Authorization: `Bearer ${key}` } }))
          .status,
      ).toBe(200);
      await service.stop();
      const logged = fs.readFileSync(logFile, 'utf8');
      expect(logged).toContain('API_KEY is not set');
      expect(logged).not.toContain(key);
    } finally {
      await service.stop();
    }
  });

  it('logs JSON lines when stdout is not a terminal, and readable lines with LOG_FORMAT=pretty', async () => {
    const apiKey = secrets.add(randomBytes(32).toString('hex'));
    const run = async (env: Record<string, string>): Promise<string[]> => {
      const service = new ServiceProcess(workdir(), { API_KEY: apiKey, CONFIG_FILE, ...env });
      await service.start();
      try {
        await service.waitHealthy();
        await service.call('GET', '/api/v1/notifications');
      } finally {
        await service.stop();
      }
      expect(secrets.foundIn(service.log)).toEqual([]);
      return service.log.split('\n').filter((line) => line !== '');
    };
    const json = await run({});
    expect(json.every((line) => typeof JSON.parse(line) === 'object')).toBe(true);
    expect(json.map((line) => JSON.parse(line) as { msg?: string }).map((l) => l.msg)).toContain(
      'request completed',
    );
    const pretty = await run({ LOG_FORMAT: 'pretty' });
    expect(pretty.some((line) => line.startsWith('{'))).toBe(false);
    expect(
      pretty.some((line) => /\bINFO: \[Bootstrap\] listening on http:\/\/127\.0\.0\.1:/.test(line)),
    ).toBe(true);
    expect(
      pretty.some((line) =>
        /INFO: GET \/api\/v1\/notifications 200 \d+ ms \(request [0-9a-f-]{36}\)/.test(line),
      ),
    ).toBe(true);
  });

  // How each variable is checked, and its message, is asserted in src/config/app-config.spec.ts
  // (PORT, the rate limits, DATABASE_URL, LOG_LEVEL, LOG_FORMAT, ...); these rows prove the start
  // path (exit 1, the message printed, a key's value never printed) with cases that file lacks.
  it.each([
    ['WEBHOOK_BLOCK_PRIVATE_IPS', 'perhaps', 'WEBHOOK_BLOCK_PRIVATE_IPS must be true or false'],
    [
      'STORAGE_ENCRYPTION_KEY',
      'not base64 at all!!',
      'STORAGE_ENCRYPTION_KEY must be the base64 encoding of exactly 32 bytes',
    ],
    ['API_KEY', 'short', 'API_KEY must be at least 32 characters long'],
  ])('%s=%j stops the start with a message naming it', async (name, value, message) => {
    const service = new ServiceProcess(workdir(), { API_KEY: 'k'.repeat(40), CONFIG_FILE, [name]: value });
    await service.start();
    const { code } = await service.exited();
    expect(code).toBe(1);
    expect(service.log).toContain(message);
    if (name === 'STORAGE_ENCRYPTION_KEY') expect(service.log).not.toContain(value);
  });

  it('NODE_ENV=production without API_KEY refuses to start, naming API_KEY', async () => {
    const service = new ServiceProcess(workdir(), { CONFIG_FILE, NODE_ENV: 'production' });
    await service.start();
    expect((await service.exited()).code).toBe(1);
    expect(service.log).toContain('API_KEY is required with NODE_ENV=production');
  });
});

describeEmbedded('heap sizing', () => {
  it('npm start and the Docker image run the service with the same Node flags, the old generation capped', () => {
    const dockerfile = fs.readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8');
    const cmd = /^CMD (\[.*\])\s*$/m.exec(dockerfile);
    expect(cmd).not.toBeNull();
    const argv = JSON.parse(cmd?.[1] ?? '[]') as string[];
    expect(argv[0]).toBe('node');
    expect(argv[argv.length - 1]).toBe('dist/src/main.js');
    expect(argv.slice(1, -1)).toEqual(START_NODE_FLAGS);
    // Without a cap V8 sizes the old generation from the machine's memory and lets it grow to
    // several times the live heap between collections (docs/history/performance-rounds.md#memory-why-rss-rose-under-creates-and-the-cap).
    expect(START_NODE_FLAGS).toEqual(
      expect.arrayContaining([
        '--max-semi-space-size=8',
        expect.stringMatching(/^--max-old-space-size=\d+$/),
      ]),
    );
  });
});

describeEmbedded('a bad catalogue stops the start, naming the entry and never the secret', () => {
  const write = (config: object): { dir: string; file: string } => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-badcfg-'));
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify(config));
    return { dir, file };
  };
  const network = {
    type: 'evm',
    network: 'sepolia',
    chain_id: 11155111,
    rpc_urls: ['https://rpc.example.com/x'],
  };
  const secretHex = randomBytes(31).toString('hex');

  it.each([
    [
      'an unknown signer type',
      { networks: [network], signers: [{ id: 'magic-one', type: 'magic', config: {} }] },
      'magic-one',
    ],
    [
      'malformed hex',
      {
        networks: [network],
        signers: [
          { id: 'bad-hex', type: 'plain', config: { key: { type: 'plain', value: `${secretHex}zz` } } },
        ],
      },
      'bad-hex',
    ],
    [
      'a missing env variable',
      {
        networks: [network],
        signers: [
          { id: 'env-one', type: 'plain', config: { key: { type: 'env', value: 'RELAYER_TEST_UNSET_VAR' } } },
        ],
      },
      'RELAYER_TEST_UNSET_VAR',
    ],
    ['a duplicate network', { networks: [network, network], signers: [] }, 'sepolia'],
  ])('%s', async (_case, config, named) => {
    const { dir, file } = write(config);
    const service = new ServiceProcess(dir, { API_KEY: 'k'.repeat(40), CONFIG_FILE: file });
    await service.start();
    expect((await service.exited()).code).toBe(1);
    expect(service.log).toContain(named);
    expect(service.log).toContain(file);
    expect(service.log).not.toContain(secretHex);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a missing CONFIG_FILE names CONFIG_FILE', async () => {
    const service = new ServiceProcess(os.tmpdir(), {
      API_KEY: 'k'.repeat(40),
      CONFIG_FILE: '/nonexistent/relayer-config.json',
    });
    await service.start();
    expect((await service.exited()).code).toBe(1);
    expect(service.log).toContain('CONFIG_FILE');
    expect(service.log).toContain('/nonexistent/relayer-config.json');
  });
});

describeEmbedded('the shipped catalogue on a fresh machine', () => {
  it('generates the development signer key once (mode 0600) and lists dev-signer', async () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-shipped-'));
    const apiKey = secrets.add(randomBytes(32).toString('hex'));
    const service = new ServiceProcess(cwd, {
      API_KEY: apiKey,
      CONFIG_FILE: path.join(PROJECT_ROOT, 'config', 'config.json'),
    });
    await service.start();
    try {
      await service.waitHealthy();
      const keyFile = path.join(cwd, 'data', 'dev-signer.key');
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      const res = await service.call('GET', '/api/v1/signers');
      const body = (await res.json()) as { data: Array<{ id: string }> };
      expect({ status: res.status, ids: body.data.map((s) => s.id) }).toEqual({
        status: 200,
        ids: ['dev-signer'],
      });
      expect(service.log).not.toContain(fs.readFileSync(keyFile, 'utf8').trim());
    } finally {
      await service.stop();
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describeEmbedded(
  'the reference system layout (docs/reference/config-file.md#13-network-folders): a working directory holding config/',
  () => {
    const passphrase = secrets.add(`pass-${randomBytes(12).toString('hex')}`);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-layout-'));
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-elsewhere-'));
    afterAll(() => [root, elsewhere].forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
    let address = '';

    beforeAll(() => {
      // config/networks/*.json of the reference layout, and config/config.json naming config/keys/...
      fs.cpSync(path.join(PROJECT_ROOT, 'test', 'fixtures', 'reference-config'), root, { recursive: true });
      const signer = {
        id: 'local-signer',
        type: 'local',
        config: {
          path: 'config/keys/local-signer.json',
          passphrase: { type: 'env', value: 'KEYSTORE_PASSPHRASE' },
        },
      };
      fs.writeFileSync(path.join(root, 'config', 'config.json'), JSON.stringify({ signers: [signer] }));
      const made = spawnSync(
        process.execPath,
        [
          path.join(PROJECT_ROOT, 'scripts', 'create-keystore.mjs'),
          ...['--out', 'config/keys/local-signer.json', '--scrypt-n', '1024'],
        ],
        {
          cwd: root,
          env: { PATH: process.env.PATH, INIT_CWD: root, KEYSTORE_PASSPHRASE: passphrase },
          encoding: 'utf8',
        },
      );
      expect(made.status).toBe(0);
      address = /address: (0x[0-9a-fA-F]{40})/.exec(made.stdout)?.[1] ?? '';
    });

    it.each([
      ['started from the folder holding config/', () => root, {}],
      [
        'started elsewhere with CONFIG_DIR naming the folder',
        () => elsewhere,
        { CONFIG_DIR: path.join(root, 'config') },
      ],
    ])('%s: ready, the keystore and the networks found', async (_case, cwd, env) => {
      const service = new ServiceProcess(cwd(), {
        API_KEY: 'k'.repeat(40),
        KEYSTORE_PASSPHRASE: passphrase,
        ...env,
      });
      await service.start();
      try {
        await service.waitReady();
        const signers = await service.call('GET', '/api/v1/signers');
        expect(signers.status).toBe(200);
        const { data } = (await signers.json()) as {
          data: { id: string; type: string; addresses: { evm: string } }[];
        };
        expect(data.map(({ id, type, addresses }) => ({ id, type, evm: addresses.evm }))).toEqual([
          { id: 'local-signer', type: 'local', evm: address },
        ]);
        const network = await service.call('GET', '/api/v1/networks/evm:hollow-main');
        expect(network.status).toBe(200);
        expect(service.log).not.toContain(passphrase);
      } finally {
        await service.stop();
      }
    });
  },
);
