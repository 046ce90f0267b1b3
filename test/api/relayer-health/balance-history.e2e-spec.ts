import { as } from '../../support/as-key';
import { realClock, stopClockAt } from '../../support/clock';
import { expectError, successBody } from '../../support/envelope';
import { EvmRpc } from '../../support/evm-rpc';
import { useTestApp } from '../../support/test-app';
import { writeConfigFile } from '../../support/test-catalogue';
import { TEST_DB } from '../../support/test-database';
import { createKey, fileSigners, relayerBody, uid } from '../../factories';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const ETH = 10n ** 18n;
const SIGNERS = 8;

/** A datetime as the service stores it (UTC, milliseconds), for rows written directly. */
const stored = (at: number) => new Date(at).toISOString().replace('T', ' ').replace('Z', '');
const iso = (at: number) => new Date(at).toISOString();

interface Sample {
  at: string;
  balance: string;
}

/** Polls `check` every 100 ms, at most `tries` times: Date may be stopped, so no deadline by the clock. */
async function eventually<T>(what: string, check: () => Promise<T | null>, tries = 150): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await check();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

describe(`balance history on ${TEST_DB} (docs/reference/relayer-health.md#35-balance-history)`, () => {
  const node = new EvmRpc();
  let catalogue = '';
  let nextSigner = 0;
  beforeAll(async () => {
    await node.start();
    catalogue = writeConfigFile({
      networks: [{ type: 'evm', network: 'fake', chain_id: 31337, rpc_urls: [node.url('/')] }],
      signers: fileSigners('history', SIGNERS),
    });
  });
  afterAll(() => node.close());
  // Scheduled checks once in ten years: only a relayer's first check, the checks asked for here and
  // those a test makes due run.
  const handle = useTestApp(() => ({
    CONFIG_FILE: catalogue,
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: String(10 * 365 * 24 * 3600),
    RELAYER_HEALTH_RETRY_SECONDS: String(10 * 365 * 24 * 3600),
    // No node here answers slowly on purpose: a first read that timed out on a loaded CI machine (group
    // 10 at 809 s) left the 30d window without its first sample (CI at 2e72a86, MySQL; at 1bb5a86, SQLite).
    RPC_TIMEOUT_MS: '10000',
  }));
  const app = () => handle.current;
  afterEach(realClock);

  const checkedAt = async (id: string) =>
    (
      (await app().get(`/api/v1/relayers/${id}/status`).expect(200)).body.data as {
        checked_at: string | null;
      }
    ).checked_at;
  /** A relayer on the fake node (balance 0 until set) whose first check has run. */
  const create = async (id = uid('r')) => {
    const res = await app()
      .post(
        '/api/v1/relayers',
        relayerBody('evm', { id, network: 'fake', signer_id: `history-${nextSigner++}` }),
      )
      .expect(201);
    await eventually('the first check', async () => await checkedAt(id));
    return res.body.data as { id: string; address: string };
  };
  const history = async (id: string, query = '', key = app().apiKey) => {
    const res = await as(app(), key).get(`/api/v1/relayers/${id}/balance-history${query}`);
    return { status: res.status, body: res.body as unknown };
  };
  const answer = (window: string, samples: Sample[]) => ({
    status: 200,
    body: successBody({ window, samples }),
  });
  /** The scheduler's next round checks it, in a batch (docs/reference/relayer-health.md#26-rounds-in-batches). */
  const dueNow = (id: string) =>
    handle.database.exec(
      `UPDATE relayer_checks SET next_check_at = '2000-01-01 00:00:00.000' WHERE relayer_id = '${id}'`,
    );

  it('a sample at the first read and at each check that finds the balance changed, scheduled or asked for; a window holds its samples after the last one before it', async () => {
    const start = Math.floor(Date.now() / HOUR) * HOUR - 9 * DAY;
    stopClockAt(start);
    const { id, address } = await create();
    const s0 = { at: iso(start), balance: '0' };

    // Asked for: the balance changed.
    node.setBalance(address, 5n * ETH);
    jest.setSystemTime(start + HOUR);
    await app().post(`/api/v1/relayers/${id}/check`).expect(200);
    const s1 = { at: iso(start + HOUR), balance: String(5n * ETH) };
    // Asked for, scheduled: unchanged, no sample.
    jest.setSystemTime(start + 2 * HOUR);
    await app().post(`/api/v1/relayers/${id}/check`).expect(200);
    jest.setSystemTime(start + 3 * HOUR);
    await dueNow(id);
    await eventually('the scheduled check', async () =>
      (await checkedAt(id)) === iso(start + 3 * HOUR) ? true : null,
    );
    // Scheduled: changed.
    node.setBalance(address, 4n * ETH);
    jest.setSystemTime(start + 6 * DAY);
    await dueNow(id);
    await eventually('the scheduled check', async () =>
      (await checkedAt(id)) === iso(start + 6 * DAY) ? true : null,
    );
    const s2 = { at: iso(start + 6 * DAY), balance: String(4n * ETH) };
    // Asked for: changed.
    node.setBalance(address, 3n * ETH);
    jest.setSystemTime(start + 8 * DAY);
    await app().post(`/api/v1/relayers/${id}/check`).expect(200);
    const s3 = { at: iso(start + 8 * DAY), balance: String(3n * ETH) };

    jest.setSystemTime(start + 8 * DAY + HOUR);
    // 24h: s3 within it, s2 the balance it starts with.
    expect(await history(id, '?window=24h')).toEqual(answer('24h', [s2, s3]));
    expect(await history(id, '?window=7d')).toEqual(answer('7d', [s1, s2, s3]));
    expect(await history(id)).toEqual(answer('7d', [s1, s2, s3]));
    expect(await history(id, '?window=30d')).toEqual(answer('30d', [s0, s1, s2, s3]));
    // The status gives the same balance as the newest sample.
    const status = (await app().get(`/api/v1/relayers/${id}/status`).expect(200)).body.data as {
      balance: string;
    };
    expect(status.balance).toBe(s3.balance);
  });

  it('at most 1,000 samples per relayer: a new one drops the oldest', async () => {
    const { id, address } = await create();
    const now = Date.now();
    await handle.database.exec(`DELETE FROM relayer_balance_samples WHERE relayer_id = '${id}'`);
    const old = Array.from({ length: 1000 }, (_, i) => ({
      at: now - (1000 - i) * 60_000,
      balance: String(i),
    }));
    await handle.database.exec(
      `INSERT INTO relayer_balance_samples (relayer_id, at, balance) VALUES ${old
        .map((s) => `('${id}', '${stored(s.at)}', '${s.balance}')`)
        .join(', ')}`,
    );
    node.setBalance(address, 7n);
    stopClockAt(now + 1000);
    await app().post(`/api/v1/relayers/${id}/check`).expect(200);
    const got = await history(id, '?window=30d');
    expect(got).toEqual(
      answer('30d', [
        ...old.slice(1).map((s) => ({ at: iso(s.at), balance: s.balance })),
        { at: iso(now + 1000), balance: '7' },
      ]),
    );
  });

  it('kept 30 days: the checks rounds prune the older samples, but never a relayer newest', async () => {
    const p = await create();
    const q = await create();
    const now = Date.now();
    await handle.database.exec(
      `DELETE FROM relayer_balance_samples WHERE relayer_id IN ('${p.id}', '${q.id}')`,
    );
    const rows: Array<[string, number, string]> = [
      [p.id, now - 40 * DAY, '1'],
      [p.id, now - 35 * DAY, '2'],
      [p.id, now - 31 * DAY, '3'],
      [p.id, now - DAY, '4'],
      [q.id, now - 45 * DAY, '7'],
      [q.id, now - 33 * DAY, '8'],
    ];
    await handle.database.exec(
      `INSERT INTO relayer_balance_samples (relayer_id, at, balance) VALUES ${rows
        .map(([id, at, balance]) => `('${id}', '${stored(at)}', '${balance}')`)
        .join(', ')}`,
    );
    // Two hours on, a round prunes: an instance prunes at most an hour after it last did (a
    // prune may also have run meanwhile, as the rounds go on: either way this is what remains).
    stopClockAt(now + 2 * HOUR);
    const kept = await eventually('the prune', async () => {
      const got = await history(p.id, '?window=30d');
      return (got.body as { data: { samples: Sample[] } }).data.samples.length === 1 ? got : null;
    });
    expect(kept).toEqual(answer('30d', [{ at: iso(now - DAY), balance: '4' }]));
    // Q's newest sample is its balance since: kept, however old.
    expect(await history(q.id, '?window=30d')).toEqual(
      answer('30d', [{ at: iso(now - 33 * DAY), balance: '8' }]),
    );
  });

  it('deleted with the relayer: a relayer made again with its id starts a history of its own', async () => {
    const { id, address } = await create();
    node.setBalance(address, 9n);
    await app().post(`/api/v1/relayers/${id}/check`).expect(200);
    expect(((await history(id)).body as { data: { samples: Sample[] } }).data.samples).toHaveLength(2);
    await app().delete(`/api/v1/relayers/${id}`).expect(200);
    expectError(
      await app().get(`/api/v1/relayers/${id}/balance-history`),
      404,
      `Relayer with ID ${id} not found`,
    );
    await create(id);
    const again = (await history(id)).body as { data: { samples: Sample[] } };
    expect(again.data.samples.map((s) => s.balance)).toEqual(['0']);
  });

  it('relayers:read is needed, and enough; outside the key scope or unknown: 404; window must be 24h, 7d or 30d', async () => {
    const mine = await create(uid('team-a'));
    const theirs = await create(uid('team-b'));
    const keyWith = async (permissions: string[], relayer_ids?: string[]) =>
      (await createKey(app(), { name: 'history', permissions, ...(relayer_ids ? { relayer_ids } : {}) })).key;
    const scoped = await keyWith(['relayers:read'], ['team-a-*']);
    const firstRead = async (id: string) => ({
      at: (await checkedAt(id)) as string,
      balance: '0',
    });
    expect(await history(mine.id, '', scoped)).toEqual(answer('7d', [await firstRead(mine.id)]));
    expectError(
      await as(app(), scoped).get(`/api/v1/relayers/${theirs.id}/balance-history`),
      404,
      `Relayer with ID ${theirs.id} not found`,
    );
    const missing = uid('missing');
    expectError(
      await app().get(`/api/v1/relayers/${missing}/balance-history`),
      404,
      `Relayer with ID ${missing} not found`,
    );
    expectError(
      await app().get('/api/v1/relayers/a%20b/balance-history'),
      404,
      'Relayer with ID a b not found',
    );
    for (const window of ['1h', '1d', '7D', '', '7d,30d']) {
      expectError(
        await app().get(`/api/v1/relayers/${mine.id}/balance-history?window=${encodeURIComponent(window)}`),
        400,
        'window must be one of: 24h, 7d, 30d',
      );
    }
    expectError(
      await app().get(`/api/v1/relayers/${mine.id}/balance-history?since=2026-01-01`),
      400,
      'since is not an allowed field',
    );
    expectError(
      await as(app(), await keyWith(['notifications:read', 'relayers:write'])).get(
        `/api/v1/relayers/${mine.id}/balance-history`,
      ),
      403,
      'Forbidden',
    );
    expectError(await app().get(`/api/v1/relayers/${mine.id}/balance-history`, false), 401, 'Unauthorized');
  });
});
