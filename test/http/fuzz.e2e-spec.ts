import fc from 'fast-check';
import { rawRequest, type RawResponse } from '../support/raw-http';
import { useTestApp } from '../support/test-app';
import { anonymousRelayerBody, uid } from '../factories';

const SEED = 424242;
const RUNS = 150;
let cases = 0;

const FIELDS = [
  'id',
  'name',
  'network',
  'network_type',
  'paused',
  'signer_id',
  'notification_id',
  'custom_rpc_urls',
  'policies',
  'url',
  'type',
  'signing_key',
  'weight',
  'address',
  'system_disabled',
];
const POLICY_FIELDS = [
  'min_balance',
  'gas_price_cap',
  'eip1559_pricing',
  'whitelist_receivers',
  'max_signatures',
  'allowed_tokens',
  'swap_config',
  'fee_payment_strategy',
  'fee_margin_percentage',
  'slippage_percentage',
  'timeout_seconds',
  'max_fee',
  'allowed_accounts',
  'disallowed_accounts',
  '__proto__',
  'constructor',
];
const ODD_NUMBERS = [
  '1e400',
  '-1e400',
  '-0',
  '1e-400',
  '0.1e1',
  '123456789012345678901234567890',
  '-9223372036854775809',
  '9223372036854775808',
  '2147483648',
  '1E2',
  '0.0000000000000000000001',
  '18446744073709551616',
];

const anyJson = fc.jsonValue({ maxDepth: 4 });
const looksLikeABody = fc.dictionary(fc.constantFrom(...FIELDS), anyJson, { maxKeys: 8 });
const relayerish = fc.record(
  {
    name: fc.oneof(fc.string(), anyJson),
    network: fc.constantFrom('sepolia', 'devnet', 'testnet', 'nope'),
    network_type: fc.constantFrom('evm', 'solana', 'stellar', 'EVM', ''),
    paused: fc.oneof(fc.boolean(), anyJson),
    signer_id: fc.constant('pool-0000'),
    policies: fc.dictionary(fc.constantFrom(...POLICY_FIELDS), anyJson, { maxKeys: 6 }),
    custom_rpc_urls: fc.array(fc.record({ url: fc.oneof(fc.webUrl(), fc.string()), weight: anyJson }), {
      maxLength: 3,
    }),
  },
  { requiredKeys: [] },
);

/** Every answer is below 500 and, when it is an error, the error envelope. */
function expectClientSafe(res: RawResponse, context: string): void {
  cases += 1;
  if (res.status >= 500 || res.body === undefined)
    throw new Error(`${context} → ${res.status} ${res.text.slice(0, 300)}`);
  const body = res.body as Record<string, unknown>;
  if (res.status >= 400) {
    expect({
      success: body.success,
      data: body.data,
      same: body.error === body.message,
      type: typeof body.message,
    }).toEqual({
      success: false,
      data: null,
      same: true,
      type: 'string',
    });
  } else {
    expect(body.success).toBe(true);
  }
}

describe('bad input fuzzing (fast-check, seeded): every answer is a 4xx envelope or a success, never a 5xx', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  let relayerPath: string;
  let notificationPath: string;

  beforeAll(async () => {
    const relayer = await app()
      .post('/api/v1/relayers', anonymousRelayerBody('solana', { name: 'fuzz' }))
      .expect(201);
    relayerPath = `/api/v1/relayers/${String(relayer.body.data.id)}`;
    const notification = await app()
      .post('/api/v1/notifications', { url: 'https://hooks.example.com/fuzz' })
      .expect(201);
    notificationPath = `/api/v1/notifications/${String(notification.body.data.id)}`;
  });

  afterAll(() => {
    process.stdout.write(`fuzzing: ${cases} cases sent (seed ${SEED})\n`);
  });

  const send = (
    method: string,
    path: string,
    body: string | Buffer,
    headers: Array<[string, string]> = [['Content-Type', 'application/json']],
  ) =>
    rawRequest(app().port, {
      method,
      path,
      headers: [['Authorization', `Bearer ${app().apiKey}`], ...headers],
      body,
    });

  const targets = () => [
    ['POST', '/api/v1/relayers'],
    ['POST', '/api/v1/notifications'],
    ['PATCH', relayerPath],
    ['PATCH', notificationPath],
  ];

  it('random JSON values, body-shaped objects and relayer-shaped objects at every POST and PATCH', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(anyJson, looksLikeABody, relayerish),
        fc.integer({ min: 0, max: 3 }),
        async (value, target) => {
          const [method, path] = targets()[target];
          expectClientSafe(
            await send(method, path, JSON.stringify(value)),
            `${method} ${path} ${JSON.stringify(value).slice(0, 200)}`,
          );
        },
      ),
      { seed: SEED, numRuns: RUNS * 4 },
    );
  });

  it('odd numbers in every numeric position', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ODD_NUMBERS),
        fc.constantFrom(...POLICY_FIELDS.slice(0, 13)),
        fc.constantFrom('evm', 'solana', 'stellar'),
        async (num, field, type) => {
          const network = { evm: 'sepolia', solana: 'devnet', stellar: 'testnet' }[type];
          const body = `{"name":"n","network":"${network}","network_type":"${type}","paused":false,"signer_id":"pool-0001","policies":{"${field}":${num}},"custom_rpc_urls":[{"url":"https://r.example.com","weight":${num}}]}`;
          expectClientSafe(await send('POST', '/api/v1/relayers', body), body);
          expectClientSafe(
            await send('PATCH', relayerPath, `{"policies":{"${field}":${num}}}`),
            `${field}=${num}`,
          );
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('invalid UTF-8 and control bytes inside otherwise valid bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 16 }),
        fc.integer({ min: 0, max: 3 }),
        async (bytes, target) => {
          const [method, path] = targets()[target];
          const body = Buffer.concat([
            Buffer.from('{"name":"'),
            Buffer.from(bytes),
            Buffer.from('","url":"https://x.example.com"}'),
          ]);
          expectClientSafe(
            await send(method, path, body),
            `${method} ${path} bytes ${Buffer.from(bytes).toString('hex')}`,
          );
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('huge, wide and deeply nested bodies', async () => {
    const bodies = [
      `{"name":"${'x'.repeat(1_000_000)}"}`,
      `{"url":"https://x.example.com","pad":[${Array.from({ length: 100_000 }, () => '1').join(',')}]}`,
      `{"policies":${'{"a":'.repeat(33)}1${'}'.repeat(33)}}`,
      `{"policies":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
      `{"custom_rpc_urls":[${Array.from({ length: 5000 }, () => '{"url":"https://r.example.com"}').join(',')}]}`,
      `{"policies":{"allowed_accounts":[${Array.from({ length: 20_000 }, () => '"11111111111111111111111111111111"').join(',')}]}}`,
    ];
    for (const body of bodies) {
      for (const [method, path] of targets())
        expectClientSafe(await send(method, path, body), `${method} ${path} ${body.slice(0, 60)}…`);
    }
  });

  it('odd headers: media types, charsets, duplicates and conflicting framing', async () => {
    const valid = JSON.stringify({ url: 'https://hooks.example.com/h' });
    const headerSets: Array<Array<[string, string]>> = [
      [['Content-Type', 'application/json; charset=latin1']],
      [['Content-Type', 'application/json; charset="utf-8"; foo=bar']],
      [['Content-Type', 'application/json;;;']],
      [
        ['Content-Type', 'application/json'],
        ['Content-Type', 'text/plain'],
      ],
      [['Content-Type', '']],
      [
        ['Content-Type', 'application/json'],
        ['Content-Encoding', 'gzip'],
      ],
      [
        ['Content-Type', 'application/json'],
        ['X-Request-Id', 'x'.repeat(5000)],
      ],
      [
        ['Content-Type', 'application/json'],
        ['Transfer-Encoding', 'chunked'],
        ['Content-Length', '3'],
      ],
      [
        ['Content-Type', 'application/json'],
        ['Expect', '100-continue'],
      ],
      [['Content-Type', 'application/json\u0000']],
    ];
    for (const headers of headerSets) {
      for (const [method, path] of targets())
        expectClientSafe(
          await send(method, path, valid, headers),
          `${method} ${path} ${JSON.stringify(headers)}`,
        );
    }
  });

  it('the process is still healthy and serves normal requests', async () => {
    await app().get('/api/v1/health', false).expect(200);
    await app().get('/api/v1/ready', false).expect(200);
    await app()
      .post('/api/v1/notifications', {
        id: uid('after'),
        url: 'https://hooks.example.com/ok',
      })
      .expect(201);
  });
});
