import { parseJson } from '../common/http/json';
import { lazyRequire } from '../common/modules/lazy-require';
import type { xdr } from '@stellar/stellar-sdk';
import type { Address as EvmAddress } from 'viem';

/**
 * The RPC clients load on the first check of their network type, not at start: together they
 * take about a second to load (viem 0.44 s, stellar-sdk 0.41 s, @solana/kit 0.15 s measured), a
 * second every cold start paid for nothing while no relayer of that type is checked.
 */
const loadViem = lazyRequire<typeof import('viem')>('viem');
const loadSolana = lazyRequire<typeof import('@solana/kit')>('@solana/kit');
const loadStellar = lazyRequire<typeof import('@stellar/stellar-sdk')>('@stellar/stellar-sdk');

/** Why a check disabled a relayer (contract 12.1). */
export type DisableReason =
  'RpcValidationFailed' | 'NonceSyncFailed' | 'SequenceSyncFailed' | 'BalanceCheckFailed';

export type ProbeResult =
  | { readonly ok: true; readonly balance: bigint; readonly nonce?: bigint; readonly sequenceNumber?: bigint }
  | {
      readonly ok: false;
      readonly reason: DisableReason;
      readonly details: string;
      /** What was learnt before the failing check (a balance below min_balance is still a balance). */
      readonly balance?: bigint;
      readonly nonce?: bigint;
      readonly sequenceNumber?: bigint;
    };

/** What a probe needs: the endpoints to try in order, and how to reach them. */
export interface ProbeTarget {
  readonly endpoints: readonly string[];
  readonly address: string;
  /** Smallest unit (wei, lamports, stroops), or null when no policy sets one. */
  readonly minBalance: bigint | null;
  readonly fetch: typeof globalThis.fetch;
  readonly timeoutMs: number;
  /** Says what went wrong with one endpoint in words that carry no secret part of its URL. */
  readonly describeFailure: (url: string, error: unknown) => string;
}

const failed = (
  reason: DisableReason,
  details: string,
  learnt: Partial<Record<'balance' | 'nonce' | 'sequenceNumber', bigint>> = {},
): ProbeResult => ({
  ok: false,
  reason,
  details,
  ...learnt,
});

const belowMinimum = (balance: bigint, min: bigint | null): boolean => min !== null && balance < min;

/** The first endpoint for which `validate` passes (a string is why it did not), or every reason. */
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

/** EVM (viem): eth_chainId, eth_getTransactionCount(pending), eth_getBalance(latest). */
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
  let nonce: bigint;
  try {
    nonce = BigInt(await valid.value.getTransactionCount({ address, blockTag: 'pending' }));
  } catch (error) {
    return failed(
      'NonceSyncFailed',
      `eth_getTransactionCount failed: ${target.describeFailure(valid.url, error)}`,
    );
  }
  let balance: bigint;
  try {
    balance = await valid.value.getBalance({ address, blockTag: 'latest' });
  } catch (error) {
    return failed(
      'BalanceCheckFailed',
      `eth_getBalance failed: ${target.describeFailure(valid.url, error)}`,
      { nonce },
    );
  }
  if (belowMinimum(balance, target.minBalance)) {
    return failed('BalanceCheckFailed', `balance ${balance} is below min_balance ${target.minBalance}`, {
      balance,
      nonce,
    });
  }
  return { ok: true, balance, nonce };
}

/** Solana (@solana/kit): getHealth answers "ok", then getBalance. */
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
        const response = await target.fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
          signal,
        });
        if (!response.ok) throw new HttpStatusError(response.status);
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
    return health === 'ok' ? rpc : `${hostOf(url)}: getHealth answered ${JSON.stringify(health)}`;
  });
  if ('problems' in valid)
    return failed('RpcValidationFailed', noEndpointText('answered getHealth "ok"', valid.problems));
  let balance: bigint;
  try {
    balance = (await valid.value.getBalance(solanaAddress(target.address)).send()).value;
  } catch (error) {
    return failed('BalanceCheckFailed', `getBalance failed: ${target.describeFailure(valid.url, error)}`);
  }
  if (belowMinimum(balance, target.minBalance)) {
    return failed('BalanceCheckFailed', `balance ${balance} is below min_balance ${target.minBalance}`, {
      balance,
    });
  }
  return { ok: true, balance };
}

/** Stellar (@stellar/stellar-sdk's RPC client): getNetwork, then the account's ledger entry. */
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
      : `network passphrase '${network.passphrase}' differs from the catalogue's '${passphrase}'`;
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
      'SequenceSyncFailed',
      `getLedgerEntries failed: ${target.describeFailure(valid.url, error)}`,
    );
  }
  const sequenceNumber = account.seqNum;
  const balance = account.balance;
  if (belowMinimum(balance, target.minBalance)) {
    return failed('BalanceCheckFailed', `balance ${balance} is below min_balance ${target.minBalance}`, {
      balance,
      sequenceNumber,
    });
  }
  return { ok: true, balance, sequenceNumber };
}

/** An endpoint's host: what a text about it may name (its path and credentials often hold an API key). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an RPC endpoint';
  }
}

export class HttpStatusError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

interface StellarRequestConfig {
  url?: string;
  baseURL?: string;
  method?: string;
  data?: unknown;
}

/** The stellar-sdk HTTP client's adapter, sending through our fetch (URL policy, timeout). */
function stellarAdapter(fetchFn: typeof globalThis.fetch) {
  return async (config: StellarRequestConfig) => {
    const url = new URL(config.url ?? '', config.baseURL).toString();
    const response = await fetchFn(url, {
      method: (config.method ?? 'post').toUpperCase(),
      headers: { 'content-type': 'application/json' },
      body: typeof config.data === 'string' ? config.data : JSON.stringify(config.data),
    });
    if (!response.ok) throw new HttpStatusError(response.status);
    const data: unknown = await response.json();
    return { data, status: response.status, statusText: response.statusText, headers: {}, config };
  };
}
