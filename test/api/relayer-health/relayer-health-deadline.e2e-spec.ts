import { errorBody, successBody } from '../../support/envelope';
import { JsonRpcServer } from '../../support/json-rpc-server';
import { useTestApp } from '../../support/test-app';
import { waitFor } from '../../support/wait';
import { ISO, createRelayer } from '../../factories';

/** Sepolia's chain id, as the test catalogue has it. */
const SEPOLIA = '0xaa36a7';
/**
 * The request deadline of this file's app: every request of the test must end within it, on a loaded
 * CI machine too (at 1 s, a relayer's POST on MySQL beside the rest of the suite answered 504).
 */
const REQUEST_TIMEOUT_MS = 3000;
/** Each answer of the slow node: an EVM check makes three calls one after the other. */
const ANSWER_DELAY_MS = 3500;

describe('POST /api/v1/relayers/{id}/check past REQUEST_TIMEOUT_MS (docs/reference/hardening.md)', () => {
  const node = { nonce: 7, balance: 42 };
  const rpc = new JsonRpcServer({
    eth_chainId: () => ({ result: SEPOLIA }),
    eth_getTransactionCount: () => ({ result: `0x${node.nonce.toString(16)}` }),
    eth_getBalance: () => ({ result: `0x${node.balance.toString(16)}` }),
  });
  beforeAll(() => rpc.start());
  afterAll(() => rpc.close());
  // The first check of a relayer is the rounds' (no request deadline); the schedule never comes back.
  const handle = useTestApp({
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    RPC_TIMEOUT_MS: '5000',
    RELAYER_HEALTH_CHECKS: 'true',
    RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '3600',
    RELAYER_HEALTH_RETRY_SECONDS: '3600',
  });
  const app = () => handle.current;

  const status = (nonce: number, balance: number, checkedAt: string) =>
    successBody({
      network_type: 'evm',
      balance: String(balance),
      paused: false,
      system_disabled: false,
      pending_transactions_count: 0,
      last_confirmed_transaction_timestamp: null,
      low_balance: null,
      nonce: String(nonce),
      checked_at: checkedAt,
    });

  it('answers 504, then makes no further RPC call and applies nothing; the next check runs at once', async () => {
    const relayer = await createRelayer(app(), 'evm', {
      network: 'sepolia',
      custom_rpc_urls: [{ url: rpc.url('/slow'), weight: 100 }],
    });
    const id = relayer.id as string;
    const first = await waitFor('the first check, made by the rounds', async () => {
      const res = await app().get(`/api/v1/relayers/${id}/status`).expect(200);
      return (res.body as { data: { checked_at: string | null } }).data.checked_at === null ? null : res;
    });
    expect(first.body).toEqual(status(7, 42, ISO));
    const checkedAt = (first.body as { data: { checked_at: string } }).data.checked_at;
    expect(rpc.received).toBe(3);

    node.nonce = 8;
    node.balance = 43;
    rpc.answerDelayMs = ANSWER_DELAY_MS;
    const timedOut = await app().post(`/api/v1/relayers/${id}/check`);
    expect({ status: timedOut.status, body: timedOut.body as unknown }).toEqual({
      status: 504,
      body: errorBody('Gateway Timeout'),
    });
    // Its first call (eth_chainId) was made before the 504 was answered.
    expect(rpc.received).toBe(4);
    // Longer than the two calls left of the check would take.
    await new Promise((resolve) => setTimeout(resolve, 4 * ANSWER_DELAY_MS));
    expect(rpc.received).toBe(4);
    const unchanged = await app().get(`/api/v1/relayers/${id}/status`).expect(200);
    expect(unchanged.body).toEqual(status(7, 42, checkedAt));

    // The stopped check gave its lease back: asked again, the check runs now.
    rpc.answerDelayMs = 0;
    const checked = await app().post(`/api/v1/relayers/${id}/check`).expect(200);
    expect(checked.body).toEqual(status(8, 43, ISO));
    expect(rpc.received).toBe(7);
  });
});
