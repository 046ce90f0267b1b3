import { JsonRpcBatch, MAX_BATCH_CALLS, type RpcPost } from './json-rpc-batch';

interface Request {
  readonly id: number;
  readonly method: string;
  readonly params?: unknown;
}

/**
 * An endpoint in the process: `answer` gives each call's answer object (without the id); the
 * requests it received are kept as sent, to see how the calls travelled.
 */
function endpoint(
  answer: (call: Request) => object | undefined,
  options: { batches?: 'array' | 'refused'; status?: number } = {},
) {
  const bodies: unknown[] = [];
  const post: RpcPost = (_url, body) => {
    const parsed = JSON.parse(body) as Request | Request[];
    bodies.push(parsed);
    const one = (call: Request) => {
      const a = answer(call);
      return a && { jsonrpc: '2.0', id: call.id, ...a };
    };
    let text: string;
    if (!Array.isArray(parsed)) text = JSON.stringify(one(parsed));
    else if (options.batches === 'refused')
      text = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no batches' } });
    else text = JSON.stringify(parsed.map(one).filter(Boolean));
    return Promise.resolve({ status: options.status ?? 200, text });
  };
  return { post, bodies };
}

const methodsOf = (body: unknown): string[] =>
  (Array.isArray(body) ? (body as Request[]) : [body as Request]).map((call) => call.method);

const settled = (promises: Array<Promise<unknown>>) =>
  Promise.all(
    promises.map((p) =>
      p.then(
        (value) => ({ value }),
        (error: unknown) => ({ error: error instanceof Error ? `${error.name}: ${error.message}` : error }),
      ),
    ),
  );

describe('JsonRpcBatch (docs/reference/relayer-health.md#26-rounds-in-batches)', () => {
  it('a lone call travels as a plain JSON-RPC request, exactly as one check sends it', async () => {
    const { post, bodies } = endpoint(() => ({ result: '0x7a69' }));
    const rpc = new JsonRpcBatch(post);
    await expect(rpc.call('http://a', 'eth_chainId')).resolves.toBe('0x7a69');
    expect(bodies).toEqual([{ jsonrpc: '2.0', id: 0, method: 'eth_chainId' }]);
  });

  it('calls to one URL in one turn travel as one batch; identical calls are sent once; other URLs apart', async () => {
    const { post, bodies } = endpoint((call) => ({
      result: `${call.method}:${JSON.stringify(call.params)}`,
    }));
    const rpc = new JsonRpcBatch(post);
    const answers = await Promise.all([
      rpc.call('http://a', 'eth_chainId'),
      rpc.call('http://a', 'eth_chainId'),
      rpc.call('http://a', 'eth_getBalance', ['0x1', 'latest']),
      rpc.call('http://a', 'eth_getBalance', ['0x2', 'latest']),
      rpc.call('http://b', 'eth_chainId'),
    ]);
    expect(answers).toEqual([
      'eth_chainId:undefined',
      'eth_chainId:undefined',
      'eth_getBalance:["0x1","latest"]',
      'eth_getBalance:["0x2","latest"]',
      'eth_chainId:undefined',
    ]);
    expect(bodies.map(methodsOf)).toEqual([
      ['eth_chainId', 'eth_getBalance', 'eth_getBalance'],
      ['eth_chainId'],
    ]);
  });

  it(`more than ${MAX_BATCH_CALLS} calls are split into batches of at most ${MAX_BATCH_CALLS}`, async () => {
    const { post, bodies } = endpoint((call) => ({ result: (call.params as string[])[0] }));
    const rpc = new JsonRpcBatch(post);
    const addresses = Array.from({ length: 2 * MAX_BATCH_CALLS + 1 }, (_, i) => `0x${i.toString(16)}`);
    const answers = await Promise.all(addresses.map((a) => rpc.call('http://a', 'eth_getBalance', [a])));
    expect(answers).toEqual(addresses);
    expect(bodies.map((body) => methodsOf(body).length)).toEqual([MAX_BATCH_CALLS, MAX_BATCH_CALLS, 1]);
  });

  it('each call gets its own answer: an error object, a missing answer and exact integers, apart', async () => {
    const { post } = endpoint((call) => {
      if (call.method === 'bad') return { error: { code: -32000, message: 'nope' } };
      if (call.method === 'lost') return undefined;
      return { result: 'U64' };
    });
    // JSON.stringify cannot write a u64 exactly: the answer's text gets it here.
    const exact: RpcPost = async (url, body) => {
      const answer = await post(url, body);
      return { ...answer, text: answer.text.replace('"U64"', '18446744073709551615') };
    };
    const rpc = new JsonRpcBatch(exact);
    expect(
      await settled([
        rpc.call('http://a', 'good'),
        rpc.call('http://a', 'bad'),
        rpc.call('http://a', 'lost'),
      ]),
    ).toEqual([
      { value: 18446744073709551615n },
      { error: { code: -32000, message: 'nope' } },
      { error: 'TypeError: no answer to the call in the batch' },
    ]);
  });

  it('an HTTP error fails every call of its batch, and only those', async () => {
    const failing = endpoint(() => ({ result: 1 }), { status: 503 });
    const working = endpoint(() => ({ result: 1 }));
    const rpc = new JsonRpcBatch((url, body) => (url === 'http://bad' ? failing : working).post(url, body));
    const answers = await settled([
      rpc.call('http://bad', 'eth_chainId'),
      rpc.call('http://bad', 'eth_getBalance', ['0x1']),
      rpc.call('http://good', 'eth_chainId'),
      rpc.call('http://good', 'eth_getBalance', ['0x1']),
    ]);
    expect(answers).toEqual([
      { error: 'Error: HTTP 503' },
      { error: 'Error: HTTP 503' },
      { value: 1 },
      { value: 1 },
    ]);
  });

  it('an endpoint that answers a batch with no array gets the calls one by one', async () => {
    const { post, bodies } = endpoint((call) => ({ result: call.method }), { batches: 'refused' });
    const rpc = new JsonRpcBatch(post);
    const answers = await Promise.all([rpc.call('http://a', 'one'), rpc.call('http://a', 'two')]);
    expect(answers).toEqual(['one', 'two']);
    expect(bodies.map(methodsOf)).toEqual([['one', 'two'], ['one'], ['two']]);
  });
});
