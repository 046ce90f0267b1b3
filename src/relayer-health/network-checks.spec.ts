import fc from 'fast-check';
import type http from 'node:http';
import { LoopbackServer } from '../../test/support/loopback-server';
import { DnsResolver } from '../common/security/dns-resolver';
import { loadConfig } from '../config/app-config';
import { MAX_ANSWER_BYTES, checkEvm, checkSolana, checkStellar, type CheckResult } from './network-checks';
import { disabledReasonOf } from './relayer-health.service';
import { JsonRpcBatch } from './json-rpc-batch';
import { RpcFetch } from './rpc-fetch';

/**
 * Random RPC answers against each network check, through the real RpcFetch and a local HTTP server
 * (docs/reference/hardening.md): a check always comes back with a CheckResult, and every text a check would store
 * is bounded, whatever the endpoint answers (sizes, JSON types, nesting, invalid UTF-8, wrong ids,
 * slow drips, HTTP statuses).
 */

const SEED = 20260523;
const TIMEOUT_MS = 400;
const PASSPHRASE = 'Test SDF Network ; September 2015';
const ADDRESSES = {
  evm: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
  solana: '6ASf5EcmmEHTgDJ4X4ZT5vT6iHVJBXPg5AN5YoTCpGWt',
  stellar: 'GBGLLK7WVV47X5NLXTFPZQTJ3BONEZI62S4ILNMGT4SBV3PQUW5CTECA',
};
/** The columns a check's numbers are stored in (RelayerCheckEntity). */
const STORED_LENGTH = { balance: 100, nonce: 40, sequenceNumber: 40 } as const;

interface RpcRequest {
  readonly id: unknown;
  readonly method: string;
}

/** What the server does with one request; `body` may use the request's id and method. */
interface Answer {
  readonly status: number;
  readonly declareLength: boolean;
  /** Pause before each of the body's pieces: a slow drip when there are several. */
  readonly dripMs: number;
  readonly pieces: number;
  readonly body: (request: RpcRequest) => Buffer;
}

/** A valid answer to each method, so that a run also reaches the checks after the first. */
const GOOD: Record<string, unknown> = {
  eth_chainId: '0x1',
  eth_getTransactionCount: '0x5',
  eth_getBalance: '0x10',
  getHealth: 'ok',
  getBalance: { context: { slot: 1 }, value: 5 },
  getNetwork: { passphrase: PASSPHRASE, protocolVersion: 23 },
  getLedgerEntries: { entries: [], latestLedger: 1 },
};

/** A valid answer to the method asked. */
const goodBody: Answer['body'] = ({ id, method }) =>
  rpcAnswer(id, 'result', JSON.stringify(GOOD[method] ?? null));

const rpcAnswer = (id: unknown, member: 'result' | 'error', value: string): Buffer =>
  Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},"${member}":${value}}`);

const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);

/** Every kind of body: well-formed and not, small and beyond the cap. */
const hostile: fc.Arbitrary<Answer['body']> = fc.oneof(
  fc.jsonValue().map(
    (value) =>
      ({ id }: RpcRequest) =>
        rpcAnswer(id, 'result', JSON.stringify(value)),
  ),
  fc.jsonValue().map((value) => () => Buffer.from(JSON.stringify(value))),
  fc.tuple(fc.jsonValue(), fc.jsonValue()).map(
    ([id, value]) =>
      () =>
        rpcAnswer(id, 'result', JSON.stringify(value)),
  ),
  fc
    .record({ code: fc.oneof(fc.integer(), fc.jsonValue()), message: fc.oneof(fc.string(), fc.jsonValue()) })
    .map(
      (error) =>
        ({ id }: RpcRequest) =>
          rpcAnswer(id, 'error', JSON.stringify(error)),
    ),
  fc.integer({ min: 1, max: 900 * 1024 }).map(
    (n) =>
      ({ id }: RpcRequest) =>
        rpcAnswer(id, 'error', JSON.stringify({ code: -32000, message: 'm'.repeat(n) })),
  ),
  fc.integer({ min: 1, max: 900 * 1024 }).map(
    (n) =>
      ({ id }: RpcRequest) =>
        rpcAnswer(id, 'result', JSON.stringify('r'.repeat(n))),
  ),
  fc.integer({ min: 1, max: 900 * 1024 }).map(
    (n) =>
      ({ id }: RpcRequest) =>
        rpcAnswer(id, 'result', JSON.stringify({ passphrase: 'p'.repeat(n) })),
  ),
  fc.integer({ min: 1, max: 400_000 }).map(
    (n) =>
      ({ id }: RpcRequest) =>
        rpcAnswer(id, 'result', `"0x${'f'.repeat(n)}"`),
  ),
  fc.integer({ min: 1, max: 400_000 }).map(
    (n) =>
      ({ id }: RpcRequest) =>
        rpcAnswer(id, 'result', `{"context":{"slot":1},"value":${'9'.repeat(n)}}`),
  ),
  fc.tuple(fc.integer({ min: 1, max: 400_000 }), fc.constantFrom(['[', ']'], ['{"a":', '}'])).map(
    ([depth, [open, close]]) =>
      ({ id }: RpcRequest) =>
        rpcAnswer(id, 'result', nested(depth, open, close)),
  ),
  fc.uint8Array({ maxLength: 4096 }).map((bytes) => () => Buffer.from(bytes)),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map(
    (bytes) =>
      ({ id }: RpcRequest) =>
        Buffer.concat([rpcAnswer(id, 'result', '"').subarray(0, -2), Buffer.from(bytes), Buffer.from('"}')]),
  ),
  fc.constantFrom(MAX_ANSWER_BYTES - 64, MAX_ANSWER_BYTES + 1, 3 * MAX_ANSWER_BYTES).map(
    (n) =>
      ({ id }: RpcRequest) =>
        rpcAnswer(id, 'result', JSON.stringify('b'.repeat(n))),
  ),
);

/** Often a good answer, so that runs reach the checks after the first one too. */
const body: fc.Arbitrary<Answer['body']> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constant(goodBody),
  },
  { weight: 1, arbitrary: hostile },
);

const answer: fc.Arbitrary<Answer> = fc.record({
  status: fc.constantFrom(200, 200, 200, 200, 200, 200, 204, 301, 404, 429, 500, 503),
  declareLength: fc.boolean(),
  dripMs: fc.constantFrom(0, 0, 0, 30, 120),
  pieces: fc.integer({ min: 1, max: 6 }),
  body,
});

/** A local endpoint answering each request with the next answer of the plan (the last one repeats). */
class PlannedServer extends LoopbackServer {
  private plan: readonly Answer[] = [];
  private served = 0;
  use(plan: readonly Answer[]): void {
    this.plan = plan;
    this.served = 0;
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let request: { id?: unknown; method?: unknown } = {};
      try {
        request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof request;
      } catch {
        // Answered from the plan all the same.
      }
      const planned = this.plan[Math.min(this.served++, this.plan.length - 1)];
      const bytes = planned.body({
        id: request.id,
        method: typeof request.method === 'string' ? request.method : '',
      });
      res.on('error', () => undefined);
      const noBody = planned.status === 204;
      res.writeHead(planned.status, {
        'content-type': 'application/json',
        ...(planned.declareLength && !noBody ? { 'content-length': String(bytes.length) } : {}),
      });
      if (noBody) {
        res.end();
        return;
      }
      const size = Math.ceil(bytes.length / planned.pieces);
      let offset = 0;
      const next = (): void => {
        if (res.destroyed) return;
        if (offset >= bytes.length) {
          res.end();
          return;
        }
        const piece = bytes.subarray(offset, offset + size);
        offset += size;
        const go = () => (res.write(piece) ? setTimeout(next, planned.dripMs) : res.once('drain', next));
        go();
      };
      next();
    });
  }
}

describe('network checks against random RPC answers (property, docs/reference/hardening.md)', () => {
  const server = new PlannedServer();
  const config = loadConfig({ API_KEY: 'k'.repeat(32), RPC_TIMEOUT_MS: String(TIMEOUT_MS) });
  const rpc = new RpcFetch(config, new DnsResolver());
  beforeAll(() => server.start());
  afterAll(async () => {
    await rpc.onApplicationShutdown();
    await server.close();
  });

  const target = (type: keyof typeof ADDRESSES, minBalance: bigint | null) => ({
    endpoints: [server.url()],
    address: ADDRESSES[type],
    minBalance,
    call: new JsonRpcBatch(rpc.fetch).call,
    timeoutMs: TIMEOUT_MS,
    describeFailure: (url: string, error: unknown) => rpc.describeFailure(url, error),
  });

  /** What the check would store: bounded details, and numbers that fit their columns. */
  const expectStorable = (result: CheckResult): void => {
    expect(typeof result.ok).toBe('boolean');
    const reason = disabledReasonOf(result);
    if (!result.ok) {
      expect([
        'RpcValidationFailed',
        'NonceSyncFailed',
        'SequenceSyncFailed',
        'BalanceCheckFailed',
      ]).toContain(result.reason);
      // One endpoint: its own text is quoted only in part, so the details fit before any cut.
      expect(result.details.length).toBeLessThanOrEqual(500);
      expect(reason?.details).toBe(result.details);
    } else {
      expect(reason).toBeNull();
    }
    for (const field of ['balance', 'nonce', 'sequenceNumber'] as const) {
      const value = result[field];
      if (value === undefined) continue;
      expect(typeof value).toBe('bigint');
      expect(value >= 0n && value.toString().length <= STORED_LENGTH[field]).toBe(true);
    }
  };

  const plans = fc.array(answer, { minLength: 1, maxLength: 4 });
  /** Answers the random plans reach too rarely: numbers no column holds, after good answers. */
  const plain = (result: string): Answer => ({
    status: 200,
    declareLength: false,
    dripMs: 0,
    pieces: 1,
    body: ({ id }: RpcRequest) => rpcAnswer(id, 'result', result),
  });
  const good: Answer = { ...plain(''), body: goodBody };
  const examples = {
    evm: [
      [good, plain(`"0x${'f'.repeat(64)}"`)],
      [good, good, plain(`"0x${'f'.repeat(1000)}"`)],
    ],
    solana: [
      [good, plain(`{"context":{"slot":1},"value":${'9'.repeat(200)}}`)],
      [good, plain('{"context":{"slot":1},"value":-5}')],
      [good, plain(`{"context":{"slot":1},"value":"${'x'.repeat(1000)}"}`)],
      [good, plain('{"context":{"slot":1},"value":{"a":[1]}}')],
    ],
  };
  const minBalance = fc.option(fc.bigInt({ min: 0n, max: 2n ** 70n }), { nil: null });
  const runs = { seed: SEED, numRuns: 60, endOnFailure: true };
  const withExamples = (plans: Answer[][]) => ({
    ...runs,
    examples: plans.map((plan): [Answer[], bigint | null] => [plan, null]),
  });

  it('checkEvm never throws and stores only bounded text', async () => {
    await fc.assert(
      fc.asyncProperty(plans, minBalance, async (plan, min) => {
        server.use(plan);
        expectStorable(await checkEvm(target('evm', min), 1));
      }),
      withExamples(examples.evm),
    );
  });

  it('checkSolana never throws and stores only bounded text', async () => {
    await fc.assert(
      fc.asyncProperty(plans, minBalance, async (plan, min) => {
        server.use(plan);
        expectStorable(await checkSolana(target('solana', min)));
      }),
      withExamples(examples.solana),
    );
  });

  it('checkStellar never throws and stores only bounded text', async () => {
    await fc.assert(
      fc.asyncProperty(plans, minBalance, async (plan, min) => {
        server.use(plan);
        expectStorable(await checkStellar(target('stellar', min), PASSPHRASE));
      }),
      runs,
    );
  });
});
