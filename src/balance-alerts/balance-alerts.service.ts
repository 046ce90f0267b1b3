import { Injectable } from '@nestjs/common';
import { Catalogue, networkId, type NetworkType } from '../catalogue';
import { ResourceWrites, STALE } from '../database/resource-writes';
import { Transactions, type ReadTx } from '../database/transactions';
import { networkNotFound } from '../networks';
import { relayerNotFound, RelayersService } from '../relayers';
import type { BalanceAlertInput, BalanceAlertResponse } from './dto/balance-alert.dto';
import { NetworkBalanceAlertsRepository } from './network-balance-alerts.repository';
import { RelayerBalanceAlertsRepository } from './relayer-balance-alerts.repository';

/** A network's rule as written: version 0 while it has none. */
interface NetworkAlertRow {
  readonly id: string;
  readonly version: number;
  readonly threshold: string | null;
}

/** A relayer's rule as written (`own`: it has one, maybe null), with its network's beside it. */
interface RelayerAlertRow {
  readonly id: string;
  readonly version: number;
  readonly own: boolean;
  readonly threshold: string | null;
  readonly networkThreshold: string | null;
}

/** What an alert needs to know of a relayer. */
export interface AlertedRelayer {
  readonly id: string;
  readonly networkType: NetworkType;
  readonly network: string;
}

const NONE: BalanceAlertResponse = { threshold: null, source: null };

/**
 * Balance alerts (docs/reference/balance-alerts.md): a default per network, an override per relayer.
 * Each change is audited as an update of its relayer or network, written only at the version read.
 */
@Injectable()
export class BalanceAlertsService {
  private readonly networkWrites: ResourceWrites<NetworkAlertRow, BalanceAlertResponse>;
  private readonly relayerWrites: ResourceWrites<RelayerAlertRow, BalanceAlertResponse>;

  /** @internal Nest injects it. */
  constructor(
    private readonly catalogue: Catalogue,
    private readonly relayers: RelayersService,
    private readonly networkAlerts: NetworkBalanceAlertsRepository,
    private readonly relayerAlerts: RelayerBalanceAlertsRepository,
    transactions: Transactions,
  ) {
    this.networkWrites = new ResourceWrites(transactions, {
      name: 'network',
      notFound: networkNotFound,
      read: async (id, tx) => {
        const row = await this.networkAlerts.findById(id, tx);
        return { id, version: row?.version ?? 0, threshold: row?.threshold ?? null };
      },
      toResponse: ({ threshold }) => (threshold === null ? NONE : { threshold, source: 'network' }),
    });
    this.relayerWrites = new ResourceWrites(transactions, {
      name: 'relayer',
      notFound: relayerNotFound,
      read: (id, tx) => this.readRelayerRule(id, tx),
      toResponse: ({ own, threshold, networkThreshold }) => {
        if (own) return { threshold, source: 'relayer' };
        return networkThreshold === null ? NONE : { threshold: networkThreshold, source: 'network' };
      },
    });
  }

  async getNetwork(id: string): Promise<BalanceAlertResponse> {
    const key = this.networkKey(id);
    const row = await this.networkAlerts.findById(key);
    return row ? { threshold: row.threshold, source: 'network' } : NONE;
  }

  async putNetwork(id: string, { threshold }: BalanceAlertInput): Promise<BalanceAlertResponse> {
    if (threshold === null) return this.deleteNetwork(id);
    const key = this.networkKey(id);
    const written = await this.networkWrites.update(
      key,
      (current) => (current.threshold === threshold ? null : { threshold }),
      async (current, _changes, tx) =>
        (await this.networkAlerts.put(key, threshold, current.version, tx)) ? undefined : STALE,
    );
    return written.data;
  }

  async deleteNetwork(id: string): Promise<BalanceAlertResponse> {
    const key = this.networkKey(id);
    const written = await this.networkWrites.update(
      key,
      (current) => (current.version === 0 ? null : { threshold: null }),
      async (current, _changes, tx) =>
        (await this.networkAlerts.remove(key, current.version, tx)) ? undefined : STALE,
    );
    return written.data;
  }

  async getRelayer(id: string): Promise<BalanceAlertResponse> {
    return this.relayerWrites.tagged(await this.existingRelayerRule(id)).data;
  }

  async putRelayer(id: string, { threshold }: BalanceAlertInput): Promise<BalanceAlertResponse> {
    const written = await this.relayerWrites.update(
      id,
      (current) => (current.own && current.threshold === threshold ? null : { own: true, threshold }),
      async (current, _changes, tx) => {
        const outcome = await this.relayerAlerts.put(id, threshold, current.version, tx);
        if (outcome === 'missing') throw relayerNotFound(id);
        return outcome === 'stale' ? STALE : undefined;
      },
    );
    return written.data;
  }

  async deleteRelayer(id: string): Promise<BalanceAlertResponse> {
    const written = await this.relayerWrites.update(
      id,
      (current) => (current.own ? { own: false, threshold: null } : null),
      async (current, _changes, tx) =>
        (await this.relayerAlerts.remove(id, current.version, tx)) ? undefined : STALE,
    );
    return written.data;
  }

  /**
   * The threshold that applies to each relayer now (null: no alert), by relayer id: two reads for
   * any number of relayers (docs/reference/balance-alerts.md#2-which-threshold-applies).
   * @internal
   */
  async thresholdsOf(relayers: readonly AlertedRelayer[], tx?: ReadTx): Promise<Map<string, string | null>> {
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
        ownById.has(relayer.id)
          ? (ownById.get(relayer.id) ?? null)
          : (byNetwork.get(networkId(relayer.networkType, relayer.network)) ?? null),
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

  private async existingRelayerRule(id: string): Promise<RelayerAlertRow> {
    const row = await this.readRelayerRule(id);
    if (!row) throw relayerNotFound(id);
    return row;
  }

  private async readRelayerRule(id: string, tx?: ReadTx): Promise<RelayerAlertRow | null> {
    const relayer = await this.relayers.findEntity(id, tx);
    if (!relayer) return null;
    const [own, network] = await Promise.all([
      this.relayerAlerts.findById(id, tx),
      this.networkAlerts.findById(networkId(relayer.networkType, relayer.network), tx),
    ]);
    return {
      id,
      version: own?.version ?? 0,
      own: own !== null,
      threshold: own?.threshold ?? null,
      networkThreshold: network?.threshold ?? null,
    };
  }
}
