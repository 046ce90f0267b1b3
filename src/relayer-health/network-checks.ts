import { lazyRequire } from '../common/modules/lazy-require';
import type { xdr } from '@stellar/stellar-sdk';
import { withoutUrlSecrets } from '../common/security/url-masking';
import { AnswerTooLargeError } from './relayer-health.errors';

// Loaded on the first Stellar check, for its XDR: 0.4 s more on a cold start (docs/performance.md).
const loadStellar = lazyRequire<typeof import('@stellar/stellar-sdk')>('@stellar/stellar-sdk');

/** Why a check disabled a relayer (docs/reference/relayer-health.md#1-the-checks). */
export type DisableReasonCode =
  'RpcValidationFailed' | 'NonceSyncFailed' | 'SequenceSyncFailed' | 'BalanceCheckFailed';

/** A failure keeps what was learnt before it (a balance below min_balance is still a balance). */
export type CheckResult = Readonly<CheckLearnt> &
  (
    | { readonly ok: true; readonly balance: bigint }
    | { readonly ok: false; readonly reason: DisableReasonCode; readonly details: string }
  );

export interface CheckTarget {
  readonly endpoints: readonly string[];
  readonly address: string;
  readonly minBalance: bigint | null;
  /** JsonRpcBatch.call: one JSON-RPC call; an error object in the answer is thrown as it came. */
  readonly call: (url: string, method: string, params?: unknown) => Promise<unknown>;
  readonly describeFailure: (url: string, error: unknown) => string;
}

/** What a health check is given: the relayer's endpoints and address, and its network's identity. */
export interface HealthCheckTarget extends CheckTarget {
  readonly relayerId: string;
  readonly network: string;
  /** EVM: the catalogue network's chain id; null when the network is not in the catalogue. */
  readonly chainId: number | null;
  /** Stellar: the catalogue network's passphrase; null when the network is not in the catalogue. */
  readonly passphrase: string | null;
}

/**
 * The checks of one network type (docs/reference/extension-events.md#3-replaceable-parts): `check`
 * resolves to the verdict, `ok` with the balance or a failure with its reason; it does not reject.
 */
export interface HealthCheck {
  check(target: HealthCheckTarget): Promise<CheckResult>;
}

/** The injection tokens of the health checks of each network type. */
export const EVM_HEALTH_CHECK = Symbol('EVM_HEALTH_CHECK');
export const SOLANA_HEALTH_CHECK = Symbol('SOLANA_HEALTH_CHECK');
export const STELLAR_HEALTH_CHECK = Symbol('STELLAR_HEALTH_CHECK');

/** The service's own checks, provided under the tokens above. */
export const HEALTH_CHECKS = [
  { provide: EVM_HEALTH_CHECK, useValue: { check: (t) => checkEvm(t, t.chainId ?? -1) } },
  { provide: SOLANA_HEALTH_CHECK, useValue: { check: (t) => checkSolana(t) } },
  { provide: STELLAR_HEALTH_CHECK, useValue: { check: (t) => checkStellar(t, t.passphrase ?? '') } },
] as const satisfies ReadonlyArray<{ provide: symbol; useValue: HealthCheck }>;

const failed = (reason: DisableReasonCode, details: string, learnt: CheckLearnt = {}): CheckResult => ({
  ok: false,
  reason,
  details,
  ...learnt,
});

/** The first endpoint `validate` finds no problem with, or the failure that says every endpoint's. */
async function firstValid(
  target: CheckTarget,
  what: string,
  validate: (url: string) => Promise<string | null>,
): Promise<string | CheckResult> {
  const problems: string[] = [];
  for (const url of target.endpoints) {
    try {
      const problem = await validate(url);
      if (problem === null) return url;
      problems.push(problem);
    } catch (error) {
      problems.push(target.describeFailure(url, error));
    }
  }
  return failed(
    'RpcValidationFailed',
    problems.length === 0 ? 'no RPC endpoint to check' : `no RPC endpoint ${what}: ${problems.join('; ')}`,
  );
}

export async function checkEvm(target: CheckTarget, chainId: number): Promise<CheckResult> {
  const url = await firstValid(target, 'answered with the right chain', async (url) => {
    const answered = safeNumber(await target.call(url, 'eth_chainId'));
    return answered === chainId
      ? null
      : `chain id 0x${answered.toString(16)} differs from the catalogue's ${chainId}`;
  });
  if (typeof url !== 'string') return url;
  const read = readerOf(target, url);
  const nonce = await read(['eth_getTransactionCount', 'nonce', 'NonceSyncFailed', 64n], {}, async () =>
    safeNumber(await target.call(url, 'eth_getTransactionCount', [target.address, 'pending'])),
  );
  if (typeof nonce !== 'bigint') return nonce;
  const balance = await read(['eth_getBalance', 'balance', 'BalanceCheckFailed', 256n], { nonce }, async () =>
    BigInt((await target.call(url, 'eth_getBalance', [target.address, 'latest'])) as string),
  );
  return typeof balance === 'bigint' ? withMinimum(target, balance, { nonce }) : balance;
}

export async function checkSolana(target: CheckTarget): Promise<CheckResult> {
  const url = await firstValid(target, 'answered getHealth "ok"', async (url) => {
    let health: unknown;
    try {
      health = await target.call(url, 'getHealth', []);
    } catch (error) {
      // The documented answer of a node that is not in sync: JSON-RPC error -32005.
      const { code, message, data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
      if (code !== -32005 || typeof message !== 'string') throw error;
      const behind = (data as { numSlotsBehind?: number } | null | undefined)?.numSlotsBehind;
      return `${hostOf(url)}: getHealth answered "Node is unhealthy"${behind === undefined ? '' : ` (behind by ${behind} slots)`}`;
    }
    return health === 'ok' ? null : `${hostOf(url)}: getHealth answered ${quote(health, url)}`;
  });
  if (typeof url !== 'string') return url;
  // The commitment @solana/kit asked for by default; the node's own default is 'finalized'.
  const params = [target.address, { commitment: 'confirmed' }];
  const balance = await readerOf(target, url)(
    ['getBalance', 'balance', 'BalanceCheckFailed', 64n],
    {},
    async () => ((await target.call(url, 'getBalance', params)) as { value: unknown }).value,
  );
  return typeof balance === 'bigint' ? withMinimum(target, balance, {}) : balance;
}

export async function checkStellar(target: CheckTarget, passphrase: string): Promise<CheckResult> {
  const url = await firstValid(target, 'answered the catalogue passphrase', async (url) => {
    const network = (await target.call(url, 'getNetwork', null)) as { passphrase: unknown };
    return network.passphrase === passphrase
      ? null
      : `network passphrase '${typeof network.passphrase === 'string' ? excerpt(withoutUrlSecrets(network.passphrase, url)) : quote(network.passphrase, url)}' differs from the catalogue's '${passphrase}'`;
  });
  if (typeof url !== 'string') return url;
  const { Keypair, xdr: stellarXdr } = await loadStellar();
  let data: xdr.LedgerEntryData | undefined;
  try {
    const accountId = Keypair.fromPublicKey(target.address).xdrAccountId();
    const key = stellarXdr.LedgerKey.account(new stellarXdr.LedgerKeyAccount({ accountId }));
    const answer = await target.call(url, 'getLedgerEntries', { keys: [key.toXdr('base64')] });
    const [entry] = (answer as { entries?: { key: string; xdr: string }[] | null }).entries ?? [];
    // The key is checked as stellar-sdk did, though the entry's data is all that is used.
    if (entry !== undefined) stellarXdr.LedgerKey.fromXdr(entry.key, 'base64');
    // stellar-sdk 17 decodes XDR unions to tagged objects: `type` names the arm, which is a field.
    data = entry === undefined ? undefined : stellarXdr.LedgerEntryData.fromXdr(entry.xdr, 'base64');
  } catch (error) {
    return failed(
      reasonFor('SequenceSyncFailed', error),
      `getLedgerEntries failed: ${target.describeFailure(url, error)}`,
    );
  }
  if (data === undefined)
    return failed(
      'SequenceSyncFailed',
      `account ${target.address} was not found on the network (not funded yet?)`,
    );
  if (data.type !== 'account')
    return failed(
      'SequenceSyncFailed',
      `getLedgerEntries answered a ${data.type} entry for account ${target.address}`,
    );
  // Int64 in the XDR: a negative one is no sequence number or balance an account can have.
  const { seqNum: sequenceNumber, balance } = data.account;
  if (sequenceNumber < 0n)
    return failed('SequenceSyncFailed', `getLedgerEntries failed: ${notValid(url, 'sequence number')}`);
  if (balance < 0n)
    return failed('BalanceCheckFailed', `getLedgerEntries failed: ${notValid(url, 'balance')}`, {
      sequenceNumber,
    });
  return withMinimum(target, balance, { sequenceNumber });
}

/** What a check learnt of the account, kept by a failure too. */
export type CheckLearnt = Partial<Record<'balance' | 'nonce' | 'sequenceNumber', bigint>>;

/** An integer in [0, 2^bits) as answered (never stored otherwise), or the failure that ends the check. */
const readerOf =
  (target: CheckTarget, url: string) =>
  async (
    [method, what, reason, bits]: readonly [string, string, DisableReasonCode, bigint],
    learnt: CheckLearnt,
    read: () => Promise<unknown>,
  ): Promise<bigint | CheckResult> => {
    try {
      return (
        unsigned(await read(), bits) ?? failed(reason, `${method} failed: ${notValid(url, what)}`, learnt)
      );
    } catch (error) {
      return failed(
        reasonFor(reason, error),
        `${method} failed: ${target.describeFailure(url, error)}`,
        learnt,
      );
    }
  };

function withMinimum(target: CheckTarget, balance: bigint, learnt: CheckLearnt): CheckResult {
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
    typeof value === 'bigint' ? value : Number.isInteger(value) ? BigInt(value as number) : null;
  return integer !== null && integer >= 0n && integer < 1n << bits ? integer : null;
}

/** An EVM quantity as a number, read as `BigInt` reads it. */
function safeNumber(answer: unknown): number {
  const value = Number(BigInt(answer as string));
  if (!Number.isSafeInteger(value)) throw new RangeError('not a safe integer');
  return value;
}

const notValid = (url: string, what: string): string => `${hostOf(url)}: the answer was not a valid ${what}`;

/** An endpoint's own text ends up in disabled_reason.details (docs/reference/hardening.md). */
export function excerpt(text: string, max = 80): string {
  if (text.length <= max) return text;
  // At most `max` characters with the ellipsis, and never half of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text[max - 2]) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

/** An endpoint's answer as JSON, without the parts of its URL it may echo, cut after. */
function quote(value: unknown, url: string): string {
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    return excerpt(text === undefined ? typeof value : withoutUrlSecrets(text, url));
  } catch {
    return `a ${typeof value} that cannot be written`;
  }
}

/** An endpoint's host: what a text about it may name (its path and credentials often hold an API key). */
export function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : 'an RPC endpoint';
}

export const MAX_ANSWER_BYTES = 1024 * 1024;

/** undici wraps errors: the first match among the causes. */
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
  return error instanceof AnswerTooLargeError ? 'RpcValidationFailed' : reason;
}
