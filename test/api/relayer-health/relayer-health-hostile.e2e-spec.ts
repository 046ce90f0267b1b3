import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { JsonRpcServer, type MethodOutcome } from '../../support/json-rpc-server';
import { secrets } from '../../support/secrets';
import { freePort, ServiceProcess, startReadyService } from '../../support/service-process';
import { TESTNET_PASSPHRASE } from '../../support/stellar-rpc';
import { StreamingRpc } from '../../support/streaming-rpc';
import { useTestApp } from '../../support/test-app';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../../support/test-database';
import { waitFor } from '../../support/wait';
import { fileSigner, relayerBody, uid } from '../../factories';
import { writeConfigFile } from '../../support/test-catalogue';

const MiB = 1024 * 1024;
/** The old-space limit of `npm start` (--max-old-space-size=256): RSS must stay below it. */
const HEAP_LIMIT_BYTES = 256 * MiB;
const TYPES = ['evm', 'solana', 'stellar'] as const;
type NetworkType = (typeof TYPES)[number];

/** A catalogue with one network of each type, all on `url`, and `signers` random plain keys. */
function writeCatalogue(url: string, signers: number): string {
  const file = writeConfigFile({
    networks: [
      { type: 'evm', network: 'hostile', chain_id: 1, rpc_urls: [url] },
      { type: 'solana', network: 'hostile', rpc_urls: [url] },
      { type: 'stellar', network: 'hostile', passphrase: TESTNET_PASSPHRASE, rpc_urls: [url] },
    ],
    signers: Array.from({ length: signers }, (_, i) => fileSigner(`hostile-${i}`)),
  });
  return file;
}

/** What the first check of each network type says when no endpoint passes it. */
const FIRST_CHECK: Readonly<Record<NetworkType, string>> = {
  evm: 'no RPC endpoint answered with the right chain',
  solana: 'no RPC endpoint answered getHealth "ok"',
  stellar: 'no RPC endpoint answered the catalogue passphrase',
};

interface Relayer {
  id: string;
  network_type: NetworkType;
  system_disabled: boolean;
  disabled_reason: { type: string; details: string } | null;
}

/** The resident set of a process, from /proc (Linux). */
function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!kib) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kib[1]) * 1024;
}

describe(`hostile RPC answers against the built service on ${TEST_DB} (docs/reference/hardening.md)`, () => {
  const hostile = new StreamingRpc(200 * MiB);
  const apiKey = secrets.add(randomBytes(32).toString('hex'));
  let database: TestDatabase;
  let service: ServiceProcess | undefined;
  beforeAll(async () => {
    await hostile.start();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await service?.stop();
    await hostile.close();
    await database?.drop();
    if (service) expect(secrets.foundIn(service.log)).toEqual([]);
  });

  it('200 MiB answers to every call: the process stays up across several checks, RSS stays under the heap limit, each relayer is disabled with RpcValidationFailed "answer larger than 1 MiB"', async () => {
    service = await startReadyService({
      API_KEY: apiKey,
      DATABASE_URL: database.url,
      CONFIG_FILE: writeCatalogue(hostile.url('/'), 3),
      NODE_ENV: 'production',
      RPC_BLOCK_PRIVATE_IPS: 'false',
      LOG_LEVEL: 'warn',
      RELAYER_HEALTH_CHECKS: 'true',
      RELAYER_HEALTH_RETRY_SECONDS: '0.5',
      RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '1',
      // Long enough to read all 200 MiB over loopback, were the answer read whole.
      RPC_TIMEOUT_MS: '20000',
    });
    const running = service;
    let maxRss = rssBytes(running.pid);
    const sampler = setInterval(() => {
      try {
        maxRss = Math.max(maxRss, rssBytes(running.pid));
      } catch {
        // The process is gone: the checks below say so.
      }
    }, 20);
    try {
      const ids: Record<NetworkType, string> = { evm: '', solana: '', stellar: '' };
      for (const [i, type] of TYPES.entries()) {
        const res = await running.call(
          'POST',
          '/api/v1/relayers',
          relayerBody(type, {
            id: `hostile-${type}`,
            name: `hostile ${type}`,
            network: 'hostile',
            signer_id: `hostile-${i}`,
          }),
        );
        expect(res.status).toBe(201);
        ids[type] = `hostile-${type}`;
      }
      const expected = (type: NetworkType) => ({
        system_disabled: true,
        disabled_reason: {
          type: 'RpcValidationFailed',
          details: `${FIRST_CHECK[type]}: 127.0.0.1:${hostile.port}: answer larger than 1 MiB`,
        },
      });
      // Several checks of each: the first after the create, then a retry every 0.5 s to 1 s.
      await waitFor(
        'three checks of each relayer against the 200 MiB answers',
        () => ['eth_chainId', 'getHealth', 'getNetwork'].every((m) => hostile.callCount(m) >= 3),
        { timeoutMs: 40_000, intervalMs: 100, detail: () => service?.log.slice(-3000) ?? '' },
      );
      // The last check applied its verdict.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const health = await running.fetch('/api/v1/health');
      expect(health.status).toBe(200);
      for (const type of TYPES) {
        const res = await running.call('GET', `/api/v1/relayers/${ids[type]}`);
        expect(res.status).toBe(200);
        const { system_disabled, disabled_reason } = ((await res.json()) as { data: Relayer }).data;
        expect({ system_disabled, disabled_reason }).toEqual(expected(type));
      }
      const list = await running.call('GET', '/api/v1/relayers?per_page=10');
      expect(list.status).toBe(200);
      const items = ((await list.json()) as { data: Relayer[] }).data;
      expect(
        items
          .map(({ id, system_disabled, disabled_reason }) => ({ id, system_disabled, disabled_reason }))
          .sort((a, b) => a.id.localeCompare(b.id)),
      ).toEqual(TYPES.map((type) => ({ id: ids[type], ...expected(type) })));
    } finally {
      clearInterval(sampler);
    }
    // Sampled every 20 ms over the whole run.
    expect(maxRss).toBeLessThan(HEAP_LIMIT_BYTES);
    // Each answer was cut off after about 1 MiB (a declared 200 MiB one before any byte was read).
    const answers = ['eth_chainId', 'getHealth', 'getNetwork'].reduce((n, m) => n + hostile.callCount(m), 0);
    expect(hostile.bytesSent).toBeLessThan(answers * 16 * MiB);
  });
});

describe('answers that quote an endpoint at length, and refused connections (docs/reference/hardening.md)', () => {
  /** The text every answer carries: getHealth's answer, the passphrase, the JSON-RPC error message. */
  let text = '';
  const methods: Record<string, () => MethodOutcome> = {
    getHealth: () => ({ result: text }),
    getNetwork: () => ({ result: { friendbotUrl: null, passphrase: text, protocolVersion: 23 } }),
    eth_chainId: () => ({ error: { code: -32000, message: text } }),
  };
  const rpc = new JsonRpcServer(methods);
  let catalogue = '';
  let next = 0;
  beforeAll(async () => {
    await rpc.start();
    catalogue = writeCatalogue(rpc.url('/'), 12);
  });
  afterAll(() => rpc.close());
  const handle = useTestApp(() => ({
    CONFIG_FILE: catalogue,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
    RPC_TIMEOUT_MS: '5000',
  }));
  const app = () => handle.current;
  const host = () => `127.0.0.1:${rpc.port}`;

  const create = async (type: NetworkType, extra: object = {}): Promise<string> => {
    const id = uid(type);
    await app()
      .post(
        '/api/v1/relayers',
        relayerBody(type, {
          id,
          name: `${type} relayer`,
          network: 'hostile',
          signer_id: `hostile-${next++}`,
          ...extra,
        }),
      )
      .expect(201);
    return id;
  };
  const reason = async (id: string) => {
    await app().post(`/api/v1/relayers/${id}/check`).expect(200);
    const relayer = (await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data as Relayer;
    return relayer.disabled_reason;
  };
  /** Every relayer the list shows: none with details over 500 characters. */
  const longestListedDetails = async (): Promise<number> => {
    const res = await app().get('/api/v1/relayers?per_page=100').expect(200);
    return Math.max(...(res.body.data as Relayer[]).map((r) => r.disabled_reason?.details.length ?? 0));
  };

  it('a 4 MiB getHealth answer, passphrase and JSON-RPC error message: RpcValidationFailed "answer larger than 1 MiB"', async () => {
    text = 'h'.repeat(4 * MiB);
    const ids = {
      evm: await create('evm'),
      solana: await create('solana'),
      stellar: await create('stellar'),
    };
    for (const type of TYPES) {
      expect(await reason(ids[type])).toEqual({
        type: 'RpcValidationFailed',
        details: `${FIRST_CHECK[type]}: ${host()}: answer larger than 1 MiB`,
      });
    }
    expect(await longestListedDetails()).toBeLessThanOrEqual(500);
  });

  it('the same texts at 900 KiB (under the cap): quoted only in part', async () => {
    const prefix = 'Node is very unhealthy: ';
    text = prefix + 'x'.repeat(900 * 1024);
    const ids = {
      evm: await create('evm'),
      solana: await create('solana'),
      stellar: await create('stellar'),
    };
    const start = (n: number) => text.slice(0, n);
    expect(await reason(ids.solana)).toEqual({
      type: 'RpcValidationFailed',
      details: `${FIRST_CHECK.solana}: ${host()}: getHealth answered "${start(78)}…`,
    });
    expect(await reason(ids.stellar)).toEqual({
      type: 'RpcValidationFailed',
      details: `${FIRST_CHECK.stellar}: network passphrase '${start(79)}…' differs from the catalogue's '${TESTNET_PASSPHRASE}'`,
    });
    expect(await reason(ids.evm)).toEqual({
      type: 'RpcValidationFailed',
      details: `${FIRST_CHECK.evm}: ${host()}: answered JSON-RPC error -32000 (${start(159)}…)`,
    });
    expect(await longestListedDetails()).toBeLessThanOrEqual(500);
  });

  it('20 endpoints each quoting itself: details of exactly 500 characters, on the relayer and in the list', async () => {
    text = 'u'.repeat(300);
    const id = await create('solana', {
      custom_rpc_urls: Array.from({ length: 20 }, (_, i) => ({ url: rpc.url(`/node-${i}`), weight: 1 })),
    });
    const got = await reason(id);
    const one = `${host()}: getHealth answered "${'u'.repeat(78)}…`;
    const whole = `${FIRST_CHECK.solana}: ${Array.from({ length: 20 }, () => one).join('; ')}`;
    expect(got).toEqual({ type: 'RpcValidationFailed', details: `${whole.slice(0, 499)}…` });
    const listed = (await app().get('/api/v1/relayers?per_page=100').expect(200)).body.data as Relayer[];
    expect(listed.find((r) => r.id === id)?.disabled_reason).toEqual(got);
    expect(await longestListedDetails()).toBe(500);
  });

  it('EVM: a refused connection is said as such, by IP address and by name', async () => {
    const dead = await freePort();
    for (const hostName of ['127.0.0.1', 'localhost']) {
      const id = await create('evm', {
        custom_rpc_urls: [{ url: `http://${hostName}:${dead}/rpc`, weight: 1 }],
      });
      expect(await reason(id)).toEqual({
        type: 'RpcValidationFailed',
        details: `${FIRST_CHECK.evm}: ${hostName}:${dead}: network error (ECONNREFUSED)`,
      });
    }
  });
});
