import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  BalanceAlertsService,
  isBelowThreshold,
  type BalanceAlertResponse,
  type ThresholdChange,
} from '../balance-alerts';
import { Catalogue } from '../catalogue';
import { NetworksService } from '../networks';
import type { NetworkType } from '../catalogue';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import { stringifyJson, withRawIntegers } from '../common/http/json';
import { RequestDeadline } from '../common/http/request-deadline';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { Transactions, type ReadTx, type Tx } from '../database/transactions';
import { WorkerDatabase } from '../database/worker-database';
import type { DisabledReason } from '../relayers';
import type { RelayerSnapshot } from './relayer-snapshot';
import { relayerNotFound, RelayersService } from '../relayers';
import type { RelayerCheckEntity } from './relayer-check.entity';
import type { PassedCheck } from './relayer-checks.repository';
import type { BalanceResponse, RelayerStatusResponse } from './dto/relayer-status.dto';
import { toRelayerStatusResponse } from './relayer-health.mapper';
import {
  EVM_HEALTH_CHECK,
  excerpt,
  SOLANA_HEALTH_CHECK,
  STELLAR_HEALTH_CHECK,
  type HealthCheck,
  type CheckResult,
} from './network-checks';
import { RelayerChecksRepository } from './relayer-checks.repository';
import { RelayerHealthMetrics } from './relayer-health-metrics';
import { JsonRpcBatch } from './json-rpc-batch';
import { RpcFetch } from './rpc-fetch';
import { BalanceHistoryService } from './balance-history.service';

const UNIT: Readonly<Record<NetworkType, BalanceResponse['unit']>> = {
  evm: 'wei',
  solana: 'lamport',
  stellar: 'stroop',
};
const MAX_STATE_ATTEMPTS = 20;
const MAX_DETAILS = 500;
/** Verdicts of one batch applied at once, each in its own transaction: the API keeps the rest of the pool. */
const VERDICTS_AT_ONCE = 4;

/** docs/reference/relayer-health.md */
@Injectable()
export class RelayerHealthService {
  private readonly logger = new Logger('RelayerHealth');
  private readonly owner = `${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly relayers: RelayersService,
    private readonly checks: RelayerChecksRepository,
    private readonly catalogue: Catalogue,
    private readonly networks: NetworksService,
    private readonly rpc: RpcFetch,
    private readonly transactions: Transactions,
    private readonly metrics: RelayerHealthMetrics,
    private readonly worker: WorkerDatabase,
    private readonly alerts: BalanceAlertsService,
    private readonly history: BalanceHistoryService,
    @Inject(EVM_HEALTH_CHECK) private readonly evmCheck: HealthCheck,
    @Inject(SOLANA_HEALTH_CHECK) private readonly solanaCheck: HealthCheck,
    @Inject(STELLAR_HEALTH_CHECK) private readonly stellarCheck: HealthCheck,
  ) {}

  /** Due check ids, read on the rounds' own connections. */
  async findDue(limit: number): Promise<string[]> {
    return this.checks.findDueIds(new Date(), limit, await this.worker.connection());
  }

  /**
   * The check is read before the relayer: a verdict writes both in one transaction, so a check seen
   * done is never paired with the relayer's state from before its verdict (read the other way round,
   * a verdict committed between the two reads answered `checked_at` with the old `system_disabled`).
   */
  async status(relayerId: string): Promise<RelayerStatusResponse> {
    const check = await this.checks.findById(relayerId);
    const relayer = await this.existing(relayerId);
    const threshold = (await this.alerts.thresholdsOf([relayer])).get(relayer.id) ?? null;
    return toRelayerStatusResponse(relayer, check, threshold);
  }

  /**
   * What `include=status` adds to each relayer of a list page (docs/reference/relayers.md#36-the-status-of-each-item):
   * its status and its balance alert, exactly as `status` and GET .../balance-alert answer them, in four
   * reads for any number of relayers. As in `status`, the checks are read before the relayers, read again.
   */
  async statusesOf(
    relayers: readonly RelayerSnapshot[],
  ): Promise<Map<string, { status: RelayerStatusResponse; balance_alert: BalanceAlertResponse }>> {
    if (relayers.length === 0) return new Map();
    const ids = relayers.map((relayer) => relayer.id);
    const checks = new Map((await this.checks.findByIds(ids)).map((check) => [check.relayerId, check]));
    const [current, rules] = await Promise.all([
      this.relayers.findEntities(ids),
      this.alerts.rulesOf(relayers),
    ]);
    const currentById = new Map(current.map((relayer): [string, RelayerSnapshot] => [relayer.id, relayer]));
    return new Map(
      relayers.map((listed) => {
        const relayer = currentById.get(listed.id) ?? listed;
        const rule = rules.get(listed.id) ?? { threshold: null, source: null };
        return [
          listed.id,
          {
            status: toRelayerStatusResponse(relayer, checks.get(listed.id) ?? null, rule.threshold),
            balance_alert: rule,
          },
        ];
      }),
    );
  }

  async balance(relayerId: string): Promise<BalanceResponse> {
    const relayer = await this.existing(relayerId);
    const check = await this.checks.findById(relayerId);
    return withRawIntegers({
      balance: BigInt(check?.balance ?? '0'),
      unit: UNIT[relayer.networkType],
    }) as BalanceResponse;
  }

  /**
   * Waits for another instance's check of the relayer to end, then checks. Once the request's 504 is
   * answered, the check stops: no further RPC call, and no verdict applied (docs/reference/hardening.md).
   */
  async checkNow(relayerId: string): Promise<RelayerStatusResponse> {
    await this.existing(relayerId);
    const stop = RequestDeadline.current()?.signal;
    const deadline = Date.now() + this.leaseMs();
    let lease = await this.claim(relayerId);
    while (lease === null && Date.now() <= deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      stop?.throwIfAborted();
      lease = await this.claim(relayerId);
    }
    // Past the deadline the check runs all the same; without a lease it records nothing.
    await this.run(relayerId, lease ?? '', stop);
    return this.status(relayerId);
  }

  /** A lease names one check, or one batch of them: a check dropped or taken over never releases another's. */
  private newLease(): string {
    return `${this.owner}-${randomBytes(4).toString('hex')}`;
  }

  private async claim(relayerId: string): Promise<string | null> {
    const now = new Date();
    const lease = this.newLease();
    const until = new Date(now.getTime() + this.leaseMs());
    return (await this.checks.claim(relayerId, lease, now, until)) ? lease : null;
  }

  private async run(relayerId: string, lease: string, stop?: AbortSignal): Promise<void> {
    const relayer = await this.relayers.findEntity(relayerId);
    if (!relayer) return;
    const networkUrls = (await this.networks.rpcUrls(relayer.networkType, relayer.network)) ?? [];
    const rpc = new JsonRpcBatch((url, body) => this.rpc.fetch(url, body, stop));
    const result = await this.runCheck(relayer, networkUrls, rpc, stop);
    if (stop?.aborted) {
      // Its calls were cut short: not a verdict. The check is left to the rounds, as it was.
      await this.checks.release(relayerId, lease);
      stop.throwIfAborted();
    }
    await this.apply(relayer, lease, checkBasis(relayer, networkUrls), result);
  }

  /**
   * A batch of a round (docs/reference/relayer-health.md#26-rounds-in-batches): those of `ids` still
   * due are claimed with one lease and checked together. The checks that passed on a relayer they do
   * not change write their numbers and times in one statement; the others apply their verdicts one by
   * one, as a single check does.
   */
  async checkDue(ids: readonly string[]): Promise<void> {
    const worker = await this.worker.connection();
    const now = new Date();
    const lease = this.newLease();
    const until = new Date(now.getTime() + this.leaseMs());
    const claimed = await this.checks.claimAll(ids, lease, now, until, worker);
    if (claimed.length === 0) return;
    const claimedIds = claimed.map((check) => check.relayerId);
    const [relayers, rpcUrlsOf] = await Promise.all([
      this.relayers.findEntities(claimedIds, worker),
      this.networks.rpcUrlsOfAll(worker),
    ]);
    const rpc = new JsonRpcBatch(this.rpc.fetch);
    const checked = await Promise.all(
      relayers.map(async (relayer) => {
        const networkUrls = rpcUrlsOf(relayer.networkType, relayer.network) ?? [];
        return { relayer, networkUrls, result: await this.runCheck(relayer, networkUrls, rpc) };
      }),
    );
    // Read again after the calls: a check whose relayer or network changed meanwhile goes the single
    // way, which drops its verdict when what it checked is gone (docs/reference/hardening.md).
    const [versions, currentUrlsOf, thresholds] = await Promise.all([
      this.relayers.versionsOf(claimedIds, worker),
      this.networks.rpcUrlsOfAll(worker),
      this.alerts.thresholdsOf(relayers, worker),
    ]);
    const sameUrls = new Map<string, boolean>();
    const unchangedNetwork = (
      { networkType, network }: RelayerSnapshot,
      urls: readonly RpcUrl[],
    ): boolean => {
      const key = `${networkType}:${network}`;
      let same = sameUrls.get(key);
      if (same === undefined) {
        same = JSON.stringify(currentUrlsOf(networkType, network) ?? []) === JSON.stringify(urls);
        sameUrls.set(key, same);
      }
      return same;
    };
    const checkById = new Map(claimed.map((check) => [check.relayerId, check]));
    const passed: PassedCheck[] = [];
    const queue: typeof checked = [];
    for (const item of checked) {
      const { relayer, networkUrls, result } = item;
      const check = checkById.get(relayer.id);
      if (
        check !== undefined &&
        result.ok &&
        !relayer.systemDisabled &&
        relayer.disabledReason === null &&
        versions.get(relayer.id) === relayer.version &&
        unchangedNetwork(relayer, networkUrls) &&
        alertState(result.balance, thresholds.get(relayer.id) ?? null) === check.balanceLow
      ) {
        passed.push(passedCheck(check, result));
      } else {
        queue.push(item);
      }
    }
    if (passed.length > 0) {
      const checkedAt = new Date();
      const record = (tx: ReadTx) =>
        this.checks.recordPassed(
          passed,
          lease,
          checkedAt,
          new Date(checkedAt.getTime() + this.delayMs(0)),
          tx,
        );
      // A balance that changed is a sample, written with it (docs/reference/relayer-health.md#35-balance-history).
      const sampled = passed.filter((check) => check.balanceChanged).map((check) => check.relayerId);
      if (sampled.length === 0) await record(worker);
      else {
        await this.worker.transaction(async (tx) => {
          await record(tx);
          await this.history.recordChanged(sampled, checkedAt, tx);
        });
      }
    }
    await Promise.all(
      Array.from({ length: Math.min(VERDICTS_AT_ONCE, queue.length) }, async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
          const { relayer, networkUrls, result } = next;
          await this.apply(relayer, lease, checkBasis(relayer, networkUrls), result).catch((error: unknown) =>
            this.logger.warn({ err: error }, `check of ${relayer.id} failed`),
          );
        }
      }),
    );
  }

  private async existing(relayerId: string): Promise<RelayerSnapshot> {
    const relayer = await this.relayers.findEntity(relayerId);
    if (!relayer) throw relayerNotFound(relayerId);
    return relayer;
  }

  /** Long enough for a check over a few slow endpoints; a crashed checker's relayers wait this long. */
  private leaseMs(): number {
    return 12 * this.config.healthChecks.rpcTimeoutMs + 5000;
  }

  private async runCheck(
    relayer: RelayerSnapshot,
    networkUrls: readonly RpcUrl[],
    rpc: JsonRpcBatch,
    stop?: AbortSignal,
  ): Promise<CheckResult> {
    const started = performance.now();
    const result = await this.checkWith(relayer, networkUrls, rpc);
    if (!stop?.aborted)
      this.metrics.observe(relayer.networkType, result, (performance.now() - started) / 1000);
    return result;
  }

  private checkWith(
    relayer: RelayerSnapshot,
    networkUrls: readonly RpcUrl[],
    rpc: JsonRpcBatch,
  ): Promise<CheckResult> {
    const network = this.catalogue.findNetwork(relayer.networkType, relayer.network);
    const custom = byWeight(relayer.customRpcUrls ?? []);
    const endpoints = custom.length > 0 ? custom : byWeight(networkUrls);
    const minBalance = relayer.policies?.min_balance;
    const target = {
      relayerId: relayer.id,
      network: relayer.network,
      chainId: network?.chain_id ?? null,
      passphrase: network?.passphrase ?? null,
      endpoints,
      address: relayer.address,
      minBalance:
        typeof minBalance === 'number' || typeof minBalance === 'bigint' ? BigInt(minBalance) : null,
      call: rpc.call,
      describeFailure: (url: string, error: unknown) => this.rpc.describeFailure(url, error),
    };
    switch (relayer.networkType) {
      case 'evm':
        return this.evmCheck.check(target);
      case 'solana':
        return this.solanaCheck.check(target);
      case 'stellar':
        return this.stellarCheck.check(target);
    }
  }

  /** When the relayer no longer has what was checked (`basis`), the check is only made due again. */
  private async apply(
    relayer: RelayerSnapshot,
    lease: string,
    basis: string,
    result: CheckResult,
  ): Promise<void> {
    const relayerId = relayer.id;
    const disabledReason = disabledReasonOf(result);
    for (let attempt = 0; attempt < MAX_STATE_ATTEMPTS; attempt++) {
      const done = await this.transactions.run(async (tx) => {
        // In the transaction, with its connection: see EntityRepository.findById.
        const check = await this.checks.findById(relayerId, tx);
        if (!check) return true;
        const networkUrls = (await this.networks.rpcUrls(relayer.networkType, relayer.network, tx)) ?? [];
        const outcome = await this.relayers.applyHealthVerdict(
          relayerId,
          {
            disabledReason,
            failuresBefore: check.failures,
            probed: (current) => checkBasis(current, networkUrls) === basis,
          },
          tx,
        );
        if (outcome === 'stale') return false; // a PATCH came first: read again
        if (outcome === 'missing') return true;
        if (outcome === 'outdated') {
          await this.checks.dueNow(relayerId, new Date(), lease, tx);
          return true;
        }
        const now = new Date();
        const failures = result.ok ? 0 : check.failures + 1;
        const balance = result.balance?.toString() ?? check.balance;
        const recorded = await this.checks.record(
          relayerId,
          lease,
          {
            checkedAt: now,
            balance,
            nonce: result.nonce?.toString() ?? check.nonce,
            sequenceNumber: result.sequenceNumber?.toString() ?? check.sequenceNumber,
            failures,
            nextCheckAt: new Date(now.getTime() + this.delayMs(failures)),
          },
          tx,
        );
        // docs/reference/relayer-health.md#35-balance-history: a balance read that differs from the stored one.
        if (recorded && result.balance !== undefined && balance !== check.balance) {
          await this.history.recordChanged([relayerId], now, tx);
        }
        if (result.balance !== undefined) await this.evaluateAlert(relayer, result.balance, tx);
        return true;
      });
      if (done) return;
    }
    this.logger.warn(
      `relayer ${relayerId} kept changing while its check was applied; released for the next round`,
    );
    await this.checks.release(relayerId, lease);
  }

  /**
   * docs/reference/balance-alerts.md#3-events: the balance against the threshold that applies now,
   * its event only when this transaction is the one that flips the stored state.
   */
  private async evaluateAlert(relayer: RelayerSnapshot, balance: bigint, tx: Tx): Promise<void> {
    const threshold = (await this.alerts.thresholdsOf([relayer], tx)).get(relayer.id) ?? null;
    const crossing = await this.checks.flipBalanceLow(relayer.id, alertState(balance, threshold), tx);
    if (crossing === null || threshold === null) return;
    await this.relayers.publishBalanceCrossings(
      [{ relayerId: relayer.id, low: crossing === 'low', balance: balance.toString(), threshold }],
      tx,
    );
  }

  /**
   * docs/reference/balance-alerts.md#34-a-threshold-written: a threshold set, changed or removed is
   * compared with the last balance read of every relayer it reaches, in the write's transaction, and a
   * crossing found is announced as a check's would be (once: the check after it finds nothing changed).
   * @internal Registered with BalanceAlertsService.compareWritesWith.
   */
  async compareThreshold(change: ThresholdChange, tx: Tx): Promise<void> {
    const { threshold } = change;
    const crossings = await this.checks.compareWithThreshold(change, threshold, tx);
    if (threshold === null) return;
    await this.relayers.publishBalanceCrossings(
      crossings.map((crossing) => ({ ...crossing, threshold })),
      tx,
    );
  }

  private delayMs(failures: number): number {
    const { intervalSeconds, retrySeconds } = this.config.healthChecks;
    if (failures === 0) return intervalSeconds * 1000;
    return Math.min(intervalSeconds, retrySeconds * 2 ** (failures - 1)) * 1000;
  }
}

/** The one place disabled_reason.details is bounded (docs/reference/hardening.md). */
export function disabledReasonOf(result: CheckResult): DisabledReason | null {
  return result.ok ? null : { type: result.reason, details: excerpt(result.details, MAX_DETAILS) };
}

/** A digest of what a check reads, compared when the verdict is applied (docs/reference/hardening.md). */
function checkBasis(relayer: RelayerSnapshot, networkUrls: readonly RpcUrl[]): string {
  const basis = stringifyJson([relayer.customRpcUrls ?? null, relayer.policies ?? null, networkUrls]);
  return createHash('sha256').update(basis).digest('base64url');
}

/** The alert's state a balance gives: below the threshold or not; null without a threshold. */
function alertState(balance: bigint, threshold: string | null): boolean | null {
  return threshold === null ? null : isBelowThreshold(balance, threshold);
}

function byWeight(list: readonly RpcUrl[]): string[] {
  return list
    .filter((rpc) => rpc.weight > 0)
    .sort((a, b) => b.weight - a.weight)
    .map((rpc) => rpc.url);
}

/** What a passed check stores: what it learnt, else what was stored. */
function passedCheck(check: RelayerCheckEntity, result: CheckResult & { ok: true }): PassedCheck {
  const balance = result.balance.toString();
  const nonce = result.nonce?.toString() ?? check.nonce;
  const sequenceNumber = result.sequenceNumber?.toString() ?? check.sequenceNumber;
  return {
    relayerId: check.relayerId,
    balance,
    nonce,
    sequenceNumber,
    changed: balance !== check.balance || nonce !== check.nonce || sequenceNumber !== check.sequenceNumber,
    balanceChanged: balance !== check.balance,
  };
}
