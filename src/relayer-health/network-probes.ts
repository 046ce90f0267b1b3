import { parseJson } from '../common/http/json';
import { lazyRequire } from '../common/modules/lazy-require';
import type { xdr } from '@stellar/stellar-sdk';
import type { Address as EvmAddress } from 'viem';
import { AnswerTooLargeError, HttpStatusError } from './relayer-health.errors';

// Loaded on the first check of their network type: together they add about a second to a cold start.
const loadViem = lazyRequire<typeof import('viem')>('viem');
const loadSolana = lazyRequire<typeof import('@solana/kit')>('@solana/kit');
const loadStellar = lazyRequire<typeof import('@stellar/stellar-sdk')>('@stellar/stellar-sdk');

/** Why a check disabled a relayer (docs/reference/relayer-health.md#1-the-checks). */
export type DisableReasonCode =
  'RpcValidationFailed' | 'NonceSyncFailed' | 'SequenceSyncFailed' | 'BalanceCheckFailed';

export type ProbeResult =
  | { readonly ok: true; readonly balance: bigint; readonly nonce?: bigint; readonly sequenceNumber?: bigint }
  | {
      readonly ok: false;
      readonly reason: DisableReasonCode;
      readonly details: string;
      /** What was learnt before the failing check (a balance below min_balance is still a balance). */
      readonly balance?: bigint;
      readonly nonce?: bigint;
      readonly sequenceNumber?: bigint;
    };

export interface ProbeTarget {
  readonly endpoints: readonly string[];
  readonly address: string;
  readonly minBalance: bigint | null;
  readonly fetch: typeof globalThis.fetch;
  readonly timeoutMs: number;
  readonly describeFailure: (url: string, error: unknown) => string;
}

const failed = (reason: DisableReasonCode, details: string, learnt: Learnt = {}): ProbeResult => ({
  ok: false,
  reason,
  details,
  ...learnt,
});

/** The first endpoint `validate` accepts (a string is why it did not), or every reason. */
async function firstValid<T extends object>(
  target: ProbeTarget,
  validate: (url: string) => Promise<T | string>,
): Promise<{ url: string; value: T } | { problems: string[] }> {
  const problems: string[] = [];
  for (const url of target.endpoints) {
    try {
      const outcome = await validate(url);
      if (typeof outcome !== 'string') return { url, value: outcome };
      problems.push(outcome);
    } catch (error) {
      problems.push(target.describeFailure(url, error));
    }
  }
  return { problems };
}

const noEndpointText = (what: string, problems: string[]): string =>
  problems.length === 0 ? 'no RPC endpoint to check' : `no RPC endpoint ${what}: ${problems.join('; ')}`;

export async function probeEvm(target: ProbeTarget, chainId: number): Promise<ProbeResult> {
  const { createPublicClient, http } = await loadViem();
  const client = (url: string) =>
    createPublicClient({
      transport: http(url, { fetchFn: target.fetch, timeout: target.timeoutMs, retryCount: 0 }),
    });
  const valid = await firstValid(target, async (url) => {
    const answered = await client(url).getChainId();
    return answered === chainId
      ? client(url)
      : `chain id 0x${answered.toString(16)} differs from the catalogue's ${chainId}`;
  });
  if ('problems' in valid)
    return failed('RpcValidationFailed', noEndpointText('answered with the right chain', valid.problems));
  const address = target.address as EvmAddress;
  const read = readerOf(target, valid.url);
  const nonce = await read(['eth_getTransactionCount', 'nonce', 'NonceSyncFailed', 64n], {}, () =>
    valid.value.getTransactionCount({ address, blockTag: 'pending' }),
  );
  if (typeof nonce !== 'bigint') return nonce;
  const balance = await read(['eth_getBalance', 'balance', 'BalanceCheckFailed', 256n], { nonce }, () =>
    valid.value.getBalance({ address, blockTag: 'latest' }),
  );
  return typeof balance === 'bigint' ? withMinimum(target, balance, { nonce }) : balance;
}

export async function probeSolana(target: ProbeTarget): Promise<ProbeResult> {
  const {
    createSolanaRpcFromTransport,
    isSolanaError,
    SOLANA_ERROR__JSON_RPC__SERVER_ERROR_NODE_UNHEALTHY,
    address: solanaAddress,
  } = await loadSolana();
  const rpcAt = (url: string) =>
    createSolanaRpcFromTransport(
      async <TResponse>({ payload, signal }: { payload: unknown; signal?: AbortSignal }) => {
        const response = await postJson(target.fetch, url, 'POST', JSON.stringify(payload), signal);
        // Exact u64 lamports: integers beyond 2^53 come back as bigints, as @solana/kit's own transport does.
        return parseJson(await response.text()) as TResponse;
      },
    );
  const valid = await firstValid(target, async (url) => {
    const rpc = rpcAt(url);
    let health: string;
    try {
      health = await rpc.getHealth().send();
    } catch (error) {
      // The documented answer of a node that is not in sync: JSON-RPC error -32005.
      if (!isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_NODE_UNHEALTHY)) throw error;
      const behind = error.context.numSlotsBehind;
      return `${hostOf(url)}: getHealth answered "Node is unhealthy"${behind === undefined ? '' : ` (behind by ${behind} slots)`}`;
    }
    return health === 'ok' ? rpc : `${hostOf(url)}: getHealth answered ${quote(health)}`;
  });
  if ('problems' in valid)
    return failed('RpcValidationFailed', noEndpointText('answered getHealth "ok"', valid.problems));
  const read = readerOf(target, valid.url);
  const balance = await read(
    ['getBalance', 'balance', 'BalanceCheckFailed', 64n],
    {},
    async () => (await valid.value.getBalance(solanaAddress(target.address)).send()).value,
  );
  return typeof balance === 'bigint' ? withMinimum(target, balance, {}) : balance;
}

export async function probeStellar(target: ProbeTarget, passphrase: string): Promise<ProbeResult> {
  const { Keypair, rpc: stellarRpc, xdr: stellarXdr } = await loadStellar();
  const serverAt = (url: string) => {
    const server = new stellarRpc.Server(url, { allowHttp: true, timeout: target.timeoutMs });
    server.httpClient.defaults.adapter = stellarAdapter(target.fetch);
    return server;
  };
  const valid = await firstValid(target, async (url) => {
    const server = serverAt(url);
    const network = await server.getNetwork();
    return network.passphrase === passphrase
      ? server
      : `network passphrase '${typeof network.passphrase === 'string' ? excerpt(network.passphrase) : quote(network.passphrase)}' differs from the catalogue's '${passphrase}'`;
  });
  if ('problems' in valid)
    return failed('RpcValidationFailed', noEndpointText('answered the catalogue passphrase', valid.problems));
  let account: xdr.AccountEntry;
  try {
    const key = stellarXdr.LedgerKey.account(
      new stellarXdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(target.address).xdrAccountId() }),
    );
    const { entries } = await valid.value.getLedgerEntries(key);
    if (entries.length === 0)
      return failed(
        'SequenceSyncFailed',
        `account ${target.address} was not found on the network (not funded yet?)`,
      );
    // stellar-sdk 17 decodes XDR unions to tagged objects: `type` names the arm, which is a field.
    const data = entries[0].val;
    if (data.type !== 'account')
      return failed(
        'SequenceSyncFailed',
        `getLedgerEntries answered a ${data.type} entry for account ${target.address}`,
      );
    account = data.account;
  } catch (error) {
    return failed(
      reasonFor('SequenceSyncFailed', error),
      `getLedgerEntries failed: ${target.describeFailure(valid.url, error)}`,
    );
  }
  // Int64 in the XDR: a negative one is no sequence number or balance an account can have.
  const read = readerOf(target, valid.url);
  const sequenceNumber = await read(
    ['getLedgerEntries', 'sequence number', 'SequenceSyncFailed', 63n],
    {},
    () => Promise.resolve(account.seqNum),
  );
  if (typeof sequenceNumber !== 'bigint') return sequenceNumber;
  const balance = await read(
    ['getLedgerEntries', 'balance', 'BalanceCheckFailed', 63n],
    { sequenceNumber },
    () => Promise.resolve(account.balance),
  );
  return typeof balance === 'bigint' ? withMinimum(target, balance, { sequenceNumber }) : balance;
}

type Learnt = Partial<Record<'balance' | 'nonce' | 'sequenceNumber', bigint>>;

/** An integer in [0, 2^bits) as answered (never stored otherwise), or the failure that ends the probe. */
const readerOf =
  (target: ProbeTarget, url: string) =>
  async (
    [call, what, reason, bits]: readonly [string, string, DisableReasonCode, bigint],
    learnt: Learnt,
    read: () => Promise<unknown>,
  ): Promise<bigint | ProbeResult> => {
    try {
      return unsigned(await read(), bits) ?? failed(reason, `${call} failed: ${notValid(url, what)}`, learnt);
    } catch (error) {
      return failed(
        reasonFor(reason, error),
        `${call} failed: ${target.describeFailure(url, error)}`,
        learnt,
      );
    }
  };

function withMinimum(target: ProbeTarget, balance: bigint, learnt: Learnt): ProbeResult {
  if (target.minBalance !== null && balance < target.minBalance) {
    return failed('BalanceCheckFailed', `balance ${balance} is below min_balance ${target.minBalance}`, {
      balance,
      ...learnt,
    });
  }
  return { ok: true, balance, ...learnt };
}

function unsigned(value: unknown, bits: bigint): bigint | null {
  const integer =
    typeof value === 'bigint' ? value : Number.isSafeInteger(value) ? BigInt(value as number) : null;
  return integer !== null && integer >= 0n && integer < 1n << bits ? integer : null;
}

const notValid = (url: string, what: string): string => `${hostOf(url)}: the answer was not a valid ${what}`;

/** An endpoint's own text ends up in disabled_reason.details (docs/reference/hardening.md). */
export function excerpt(text: string, max = 80): string {
  if (text.length <= max) return text;
  // At most `max` characters with the ellipsis, and never half of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text[max - 2]) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

function quote(value: unknown): string {
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    return excerpt(text ?? typeof value);
  } catch {
    return `a ${typeof value} that cannot be written`;
  }
}

/** An endpoint's host: what a text about it may name (its path and credentials often hold an API key). */
export function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : 'an RPC endpoint';
}

export const MAX_ANSWER_BYTES = 1024 * 1024;

/** viem, undici and the SDKs wrap errors: the first match among the causes. */
export function findCause<T>(error: unknown, match: (error: unknown) => T | null): T | null {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current != null; depth++) {
    const found = match(current);
    if (found) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** An answer too large is no valid RPC answer, whichever call it came to. */
function reasonFor(reason: DisableReasonCode, error: unknown): DisableReasonCode {
  return findCause(error, (e) => (e instanceof AnswerTooLargeError ? e : null))
    ? 'RpcValidationFailed'
    : reason;
}

async function postJson(
  fetchFn: typeof globalThis.fetch,
  url: string,
  method: string,
  body: string,
  signal?: AbortSignal,
): Promise<Response> {
  const response = await fetchFn(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body,
    signal,
  });
  if (!response.ok) throw new HttpStatusError(response.status);
  return response;
}

interface StellarRequestConfig {
  url?: string;
  baseURL?: string;
  method?: string;
  data?: unknown;
}

/** Sends stellar-sdk's requests through our fetch (URL policy, timeout). */
function stellarAdapter(fetchFn: typeof globalThis.fetch) {
  return async (config: StellarRequestConfig) => {
    const url = new URL(config.url ?? '', config.baseURL).toString();
    const body = typeof config.data === 'string' ? config.data : JSON.stringify(config.data);
    const response = await postJson(fetchFn, url, (config.method ?? 'post').toUpperCase(), body);
    const data: unknown = await response.json();
    return { data, status: response.status, statusText: response.statusText, headers: {}, config };
  };
}
