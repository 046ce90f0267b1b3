import { Injectable } from '@nestjs/common';
import { Catalogue, networkId, type NetworkType } from '../catalogue';
import { STALE } from '../database/resource-writes';
import { SubResourceWrites } from '../database/sub-resource-writes';
import { Transactions, type ReadTx, type Tx } from '../database/transactions';
import { networkNotFound } from '../networks';
import { relayerNotFound, RelayersService } from '../relayers';
import type { BalanceAlertInput, BalanceAlertResponse } from './dto/balance-alert.dto';
import { NetworkBalanceAlertsRepository } from './network-balance-alerts.repository';
import { RelayerBalanceAlertsRepository } from './relayer-balance-alerts.repository';

/** A relayer's rule (`own`: it has one, maybe null), with its network's beside it. */
interface RelayerRule {
  readonly own: boolean;
  readonly threshold: string | null;
  readonly networkThreshold: string | null;
}

/**
 * A threshold just written, in its transaction (docs/reference/balance-alerts.md#34-a-threshold-written):
 * the relayers it reaches, one (`relayerId`) or every relayer of a network without a rule of its own
 * (`networkId`, as its rules are keyed), and the threshold that applies to them now (null: none).
 */
export type ThresholdChange =
  | { readonly relayerId: string; readonly threshold: string | null }
  | { readonly networkId: string; readonly threshold: string | null };

/** Compares a threshold written with the balances read, in the write's transaction (the relayer health's). */
export type ThresholdComparison = (change: ThresholdChange, tx: Tx) => Promise<void>;

/** What an alert needs to know of a relayer. */
export interface AlertedRelayer {
  readonly id: string;
  readonly networkType: NetworkType;
  readonly network: string;
}

const NONE: BalanceAlertResponse = { threshold: null, source: null };

const networkRule = (threshold: string | null): BalanceAlertResponse =>
  threshold === null ? NONE : { threshold, source: 'network' };

function relayerRule({ own, threshold, networkThreshold }: RelayerRule): BalanceAlertResponse {
  return own ? { threshold, source: 'relayer' } : networkRule(networkThreshold);
}

/**
 * Balance alerts (docs/reference/balance-alerts.md): a default per network, an override per relayer.
 * Sub-resources of the relayer and the network: each change is audited as an update of its parent.
 */
@Injectable()
export class BalanceAlertsService {
  private readonly networkWrites: SubResourceWrites<{ threshold: string | null }, BalanceAlertResponse>;
  private readonly relayerWrites: SubResourceWrites<RelayerRule, BalanceAlertResponse>;
  private compare: ThresholdComparison = () => Promise.resolve();

  /** @internal Nest injects it. */
  constructor(
    private readonly catalogue: Catalogue,
    private readonly relayers: RelayersService,
    private readonly networkAlerts: NetworkBalanceAlertsRepository,
    private readonly relayerAlerts: RelayerBalanceAlertsRepository,
    transactions: Transactions,
  ) {
    this.networkWrites = new SubResourceWrites(transactions, {
      name: 'network',
      notFound: networkNotFound,
      read: async (key, tx) => ({
        threshold: (await this.networkAlerts.findForUpdate(key, tx))?.threshold ?? null,
      }),
      toResponse: ({ threshold }) => networkRule(threshold),
    });
    this.relayerWrites = new SubResourceWrites(transactions, {
      name: 'relayer',
      notFound: relayerNotFound,
      read: (id, tx) => this.readRelayerRule(id, tx),
      toResponse: relayerRule,
    });
  }

  /**
   * The relayer health compares every threshold written with the last balances read, in the write's
   * transaction (it depends on this feature, hence a port rather than an import).
   * @internal
   */
  compareWritesWith(comparison: ThresholdComparison): void {
    this.compare = comparison;
  }

  async getNetwork(id: string): Promise<BalanceAlertResponse> {
    const row = await this.networkAlerts.findById(this.networkKey(id));
    return networkRule(row?.threshold ?? null);
  }

  /** A null threshold removes the network's rule. */
  async putNetwork(id: string, { threshold }: BalanceAlertInput): Promise<BalanceAlertResponse> {
    const key = this.networkKey(id);
    return this.networkWrites.write(
      key,
      (current) => (current.threshold === threshold ? null : { threshold }),
      async (current, _next, tx) => {
        if (threshold === null) await this.networkAlerts.remove(key, tx);
        else if (!(await this.networkAlerts.put(key, threshold, current.threshold !== null, tx)))
          return STALE;
        await this.compare({ networkId: key, threshold }, tx);
      },
    );
  }

  deleteNetwork(id: string): Promise<BalanceAlertResponse> {
    return this.putNetwork(id, { threshold: null });
  }

  async getRelayer(id: string): Promise<BalanceAlertResponse> {
    const rule = await this.readRelayerRule(id);
    if (!rule) throw relayerNotFound(id);
    return relayerRule(rule);
  }

  putRelayer(id: string, { threshold }: BalanceAlertInput): Promise<BalanceAlertResponse> {
    return this.relayerWrites.write(
      id,
      (current) =>
        current.own && current.threshold === threshold ? null : { ...current, own: true, threshold },
      async (current, next, tx) => {
        const outcome = await this.relayerAlerts.put(id, threshold, current.own, tx);
        if (outcome === 'missing') throw relayerNotFound(id);
        if (outcome === 'stale') return STALE;
        await this.compare({ relayerId: id, threshold: relayerRule(next).threshold }, tx);
      },
    );
  }

  deleteRelayer(id: string): Promise<BalanceAlertResponse> {
    return this.relayerWrites.write(
      id,
      (current) => (current.own ? { ...current, own: false, threshold: null } : null),
      async (_current, next, tx) => {
        await this.relayerAlerts.remove(id, tx);
        // Its network's default applies now (or none).
        await this.compare({ relayerId: id, threshold: relayerRule(next).threshold }, tx);
      },
    );
  }

  /**
   * The threshold that applies to each relayer now (null: no alert), by relayer id: two reads for
   * any number of relayers (docs/reference/balance-alerts.md#2-which-threshold-applies).
   * @internal
   */
  async thresholdsOf(relayers: readonly AlertedRelayer[], tx?: ReadTx): Promise<Map<string, string | null>> {
    const rules = await this.rulesOf(relayers, tx);
    return new Map([...rules].map(([id, rule]) => [id, rule.threshold]));
  }

  /**
   * Each relayer's rule as GET /api/v1/relayers/{relayer_id}/balance-alert answers it, by relayer id:
   * two reads for any number of relayers.
   * @internal
   */
  async rulesOf(
    relayers: readonly AlertedRelayer[],
    tx?: ReadTx,
  ): Promise<Map<string, BalanceAlertResponse>> {
    if (relayers.length === 0) return new Map();
    const [own, byNetwork] = await Promise.all([
      this.relayerAlerts.findByIds(
        relayers.map((relayer) => relayer.id),
        tx,
      ),
      this.networkAlerts.findAll(tx),
    ]);
    const ownById = new Map(own.map((row) => [row.id, row.threshold]));
    return new Map(
      relayers.map((relayer) => [
        relayer.id,
        relayerRule({
          own: ownById.has(relayer.id),
          threshold: ownById.get(relayer.id) ?? null,
          networkThreshold: byNetwork.get(networkId(relayer.networkType, relayer.network)) ?? null,
        }),
      ]),
    );
  }

  /**
   * Every relayer's own rule and every network's, for the metrics: `own` holds the relayers that
   * have one (null: no alert).
   * @internal
   */
  async allThresholds(): Promise<{
    own: Map<string, string | null>;
    byNetwork: Map<string, string>;
  }> {
    const [own, byNetwork] = await Promise.all([
      this.relayerAlerts.findAllRules(),
      this.networkAlerts.findAll(),
    ]);
    return { own, byNetwork };
  }

  private networkKey(id: string): string {
    const network = this.catalogue.findNetworkById(id);
    if (!network) throw networkNotFound(id);
    return networkId(network.type, network.network);
  }

  /** In a write's transaction, the relayer's own rule is locked until it ends (SubResourceWrites). */
  private async readRelayerRule(id: string, tx?: ReadTx): Promise<RelayerRule | null> {
    const relayer = await this.relayers.findEntity(id, tx);
    if (!relayer) return null;
    const [own, network] = await Promise.all([
      tx ? this.relayerAlerts.findForUpdate(id, tx) : this.relayerAlerts.findById(id, tx),
      this.networkAlerts.findById(networkId(relayer.networkType, relayer.network), tx),
    ]);
    return {
      own: own !== null,
      threshold: own?.threshold ?? null,
      networkThreshold: network?.threshold ?? null,
    };
  }
}
