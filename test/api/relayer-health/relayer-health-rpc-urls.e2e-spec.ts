import { JsonRpcServer, type MethodHandler } from '../../support/json-rpc-server';
import { secrets } from '../../support/secrets';
import { useTestApp } from '../../support/test-app';
import { TEST_DB } from '../../support/test-database';
import { relayerBody, uid } from '../../factories';

/** The test catalogue's sepolia, which relayerBody('evm') is on. */
const SEPOLIA_CHAIN_ID = `0x${(11155111).toString(16)}`;
const FIRST_CHECK = 'no RPC endpoint answered with the right chain';

interface Verdict {
  system_disabled: boolean;
  disabled_reason: { type: string; details: string } | null;
}

/**
 * RPC URLs whose secret parts the service must keep (docs/reference/relayer-health.md#13-verdicts)
 * and use (docs/reference/relayers.md#4-policies-and-rpc-urls): a query value written with `+` or
 * percent-escapes, echoed by the node exactly as its request arrived; credentials in the URL, sent
 * as HTTP Basic authentication to a node that requires it.
 */
describe(`RPC URLs with secrets: echoed, and with credentials, on ${TEST_DB}`, () => {
  /** The request targets the echoing node received, as they arrived. */
  const echoed: string[] = [];
  const evm = (chainId: MethodHandler): Record<string, MethodHandler> => ({
    eth_chainId: chainId,
    eth_getTransactionCount: () => ({ result: '0x5' }),
    eth_getBalance: () => ({ result: '0x64' }),
  });
  /** Refuses every call with a JSON-RPC error that repeats its raw request target (path and query). */
  const echoing = new JsonRpcServer(
    evm((_params, { url }) => {
      echoed.push(url);
      return { error: { code: -32000, message: `unauthorized request ${url}` } };
    }),
  );
  /** Answers only requests with its Basic credentials (user `rpcuser`, password `rpc@pass:wørd`). */
  const guarded = new JsonRpcServer(evm(() => ({ result: SEPOLIA_CHAIN_ID })));
  const password = secrets.add('rpc@pass:wørd');
  const wrongPassword = secrets.add('wrongpass');
  guarded.requiredAuthorization = `Basic ${Buffer.from(`rpcuser:${password}`).toString('base64')}`;
  beforeAll(async () => {
    await Promise.all([echoing.start(), guarded.start()]);
  });
  afterAll(async () => {
    await Promise.all([echoing.close(), guarded.close()]);
  });
  const handle = useTestApp();
  const app = () => handle.current;
  afterAll(() => {
    expect(secrets.foundIn(app().logText())).toEqual([]);
  });

  /** Creates an EVM relayer on the URL, checks it once and answers its verdict as GET and the list say it. */
  const checked = async (url: string): Promise<{ relayer: Verdict; listed: Verdict }> => {
    const id = uid('rpc');
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { id, custom_rpc_urls: [{ url, weight: 100 }] }))
      .expect(201);
    await app().post(`/api/v1/relayers/${id}/check`).expect(200);
    const pick = ({ system_disabled, disabled_reason }: Verdict): Verdict => ({
      system_disabled,
      disabled_reason,
    });
    const relayer = (await app().get(`/api/v1/relayers/${id}`).expect(200)).body.data as Verdict;
    const list = (await app().get(`/api/v1/relayers?q=${id}&include=status`).expect(200)).body
      .data as Verdict[];
    expect(list).toHaveLength(1);
    return { relayer: pick(relayer), listed: pick(list[0]) };
  };
  const everywhere = (verdict: Verdict) => ({ relayer: verdict, listed: verdict });

  it.each([
    ['a plus sign', 'Zm9v+YmFyc2VjcmV0'],
    ['percent-escapes', 'Zm9v%2BYmFy%2Fc2VjcmV0'],
    ['lower-case percent-escapes', 'Zm9v%2bYmFy%2fc2VjcmV0'],
  ])(
    'a query value with %s, echoed raw by the node: the details mask it (GET and the list with include=status)',
    async (_what, apikey) => {
      secrets.add(apikey);
      const before = echoed.length;
      const verdict = await checked(echoing.url(`/echoraw/rpc?apikey=${apikey}`));
      // The node did repeat the raw value: what the details would have held.
      expect(echoed.slice(before)).toEqual([`/echoraw/rpc?apikey=${apikey}`]);
      expect(verdict).toEqual(
        everywhere({
          system_disabled: true,
          disabled_reason: {
            type: 'RpcValidationFailed',
            details: `${FIRST_CHECK}: 127.0.0.1:${echoing.port}: answered JSON-RPC error -32000 (unauthorized request /***/rpc?apikey=***)`,
          },
        }),
      );
    },
  );

  it('credentials in the URL are sent as Basic authentication, the URL without them: the check passes', async () => {
    const before = guarded.authorizations.length;
    const url = `http://rpcuser:${encodeURIComponent(password)}@127.0.0.1:${guarded.port}/basic`;
    expect(await checked(url)).toEqual(everywhere({ system_disabled: false, disabled_reason: null }));
    // eth_chainId, then the nonce and the balance: every request carried the credentials.
    expect(guarded.authorizations.slice(before)).toEqual([
      guarded.requiredAuthorization,
      guarded.requiredAuthorization,
      guarded.requiredAuthorization,
    ]);
  });

  it('wrong credentials: the node answers 401 and the details say so, without the credentials', async () => {
    const before = guarded.authorizations.length;
    const url = `http://rpcuser:${wrongPassword}@127.0.0.1:${guarded.port}/basic`;
    expect(await checked(url)).toEqual(
      everywhere({
        system_disabled: true,
        disabled_reason: {
          type: 'RpcValidationFailed',
          details: `${FIRST_CHECK}: 127.0.0.1:${guarded.port}: HTTP 401`,
        },
      }),
    );
    expect(guarded.authorizations.slice(before)).toEqual([
      `Basic ${Buffer.from(`rpcuser:${wrongPassword}`).toString('base64')}`,
    ]);
  });
});
