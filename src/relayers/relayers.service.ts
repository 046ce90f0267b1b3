import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SignersService } from '../signers';
import { NotificationsService } from '../notifications';
import { grants, type Principal } from '../common/auth/principal';
import { RelayerScope } from '../common/auth/relayer-scope';
import { ForbiddenError, ServiceUnavailableError } from '../common/errors/domain-errors';
import type { Tagged } from '../common/http/tagged';
import type { IfMatch } from '../common/http/if-match';
import { Page, PageQueryDto } from '../common/http/page.dto';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { ResourceWrites, STALE } from '../database/resource-writes';
import { Transactions, type ReadTx, type Tx } from '../database/transactions';
import {
  RelayerListItemResponse,
  RelayerListQueryDto,
  RelayerResponse,
  RelayerSummaryResponse,
  UpdateRelayerDto,
  type RelayerSort,
  type RelayerSummaryInclude,
  type RelayerSortKey,
} from './dto/relayer.dto';
import type { RelayerStatusSource } from './relayer-status-source';
import { changedFields, mergeRelayerPatch, type NewRelayer } from './relayers.validation';
import {
  RELAYER_EVENTS,
  type RelayerBalanceEvent,
  type RelayerEvent,
  type RelayerStateChangedEvent,
} from './relayer-events';
import { toRelayerResponse, toTaggedRelayer } from './relayer.mapper';
import { RelayerEntity, type DisabledReason } from './relayer.entity';
import { RelayersRepository, type RelayerOrder } from './relayers.repository';
import {
  relayerNotFound,
  duplicateRelayer,
  unknownNotification,
  signerGone,
  signerUsedOnNetwork,
} from './relayers.errors';

/** `sort` as the repository reads it: `-name` is by name, descending. */
function orderOf(sort: RelayerSort): RelayerOrder {
  const descending = sort.startsWith('-');
  return { key: (descending ? sort.slice(1) : sort) as RelayerSortKey, descending };
}

@Injectable()
export class RelayersService {
  private readonly writes: ResourceWrites<RelayerEntity, RelayerResponse>;
  private statusSource: RelayerStatusSource | null = null;

  /** @internal Nest injects it. */
  constructor(
    private readonly relayers: RelayersRepository,
    private readonly signers: SignersService,
    private readonly notifications: NotificationsService,
    transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.writes = new ResourceWrites(transactions, {
      name: 'relayer',
      event: (relayer): RelayerEvent => ({ relayer }),
      notFound: relayerNotFound,
      read: (id, tx) => this.relayers.findById(id, tx),
      toResponse: toRelayerResponse,
    });
  }

  /** `dto` passed every check that needs no lock (docs/architecture.md#a-requests-path). */
  async create(dto: NewRelayer, options: { dryRun?: boolean } = {}): Promise<Tagged<RelayerResponse>> {
    const id = dto.id ?? randomUUID();
    // A taken id or a signer already on this network is not looked up first: the insert's unique
    // keys refuse it, and the rule it broke is read then (two queries fewer on every create).
    const now = new Date();
    const entity = Object.assign(new RelayerEntity(), {
      id,
      name: dto.name,
      network: dto.network,
      networkType: dto.network_type,
      address: dto.address,
      signerId: dto.signer_id,
      notificationId: dto.notification_id ?? null,
      paused: dto.paused,
      systemDisabled: false,
      disabledReason: null,
      customRpcUrls: dto.custom_rpc_urls,
      policies: dto.policies,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    // A dry run inserts too (the database's own rules answer as they would), then rolls back.
    return this.writes.create(
      async (tx) => {
        // A signer deleted since the body was checked: the same answer as if it had never been.
        if (!(await this.signers.holdForUse(dto.signer_id, tx))) throw signerGone(dto.signer_id);
        const refusal = await this.relayers.insert(entity, tx);
        if (refusal === 'missing_notification') throw unknownNotification(String(dto.notification_id));
        // Outside the key's relayer scope (docs/reference/keys-and-audit.md#3-relayer-scope).
        if (refusal === 'out_of_scope') throw new ForbiddenError();
        if (refusal === 'duplicate') throw await this.duplicate(entity, tx);
        return entity;
      },
      { dryRun: options.dryRun },
    );
  }

  /** Which unique key refused the relayer, read on the transaction's connection. */
  private async duplicate(entity: RelayerEntity, tx: ReadTx): Promise<Error> {
    if (await this.relayers.idTaken(entity.id, tx)) return duplicateRelayer();
    const { networkType: type, network, signerId } = entity;
    const user = await this.relayers.findIdBySignerOnNetwork(type, network, signerId, tx);
    if (user !== null) {
      const scope = RelayerScope.current();
      return signerUsedOnNetwork(signerId, scope && !scope.covers(user) ? null : user, type, network);
    }
    // Refused by a racing request that has since gone again.
    return new ServiceUnavailableError('Service Unavailable: a concurrent change conflicted, retry');
  }

  /**
   * Optimistic locking (docs/reference/relayers.md#2-update): merged and validated against each
   * version read, written only to that version; a write in between makes the next read a 412.
   */
  async update(
    id: string,
    dto: UpdateRelayerDto,
    options: { ifMatch?: IfMatch | null; dryRun?: boolean } = {},
  ): Promise<Tagged<RelayerResponse>> {
    return this.writes.update(
      id,
      (current) => mergeRelayerPatch(current, dto, this.config.rpcUrlPolicy),
      async (current, changes, tx) => {
        const written = await this.relayers.updateIfVersion(id, current.version, changes, tx);
        if (written === 'missing_notification') throw unknownNotification(String(dto.notification_id));
        if (written === 'stale') return STALE;
      },
      { ...options, eventExtra: (current, changes) => ({ changed: changedFields(current, changes) }) },
    );
  }

  /**
   * For the routes other features add under `/relayers/{id}`: false for one outside the request's
   * scope, as for a missing one (docs/reference/keys-and-audit.md#33-what-a-scoped-key-sees).
   */
  exists(id: string): Promise<boolean> {
    return this.relayers.existsById(id);
  }

  /** @internal The stored relayer (unmasked URLs: for the health checks, which call them), or null. */
  findEntity(id: string, tx?: ReadTx): Promise<RelayerEntity | null> {
    return this.relayers.findById(id, tx);
  }

  /** @internal `tx`: the connection to read on (WorkerDatabase); without it, the request's. */
  findEntities(ids: readonly string[], tx?: ReadTx): Promise<RelayerEntity[]> {
    return this.relayers.findByIds(ids, tx);
  }

  /** @internal Every write of a relayer moves its version: an unchanged version is an unchanged relayer. */
  versionsOf(ids: readonly string[], tx: ReadTx): Promise<Map<string, number>> {
    return this.relayers.findVersions(ids, tx);
  }

  /**
   * A health check's verdict (docs/reference/relayer-health.md#1-the-checks). 'stale': a PATCH wrote
   * it since it was read, retry. 'outdated': the relayer no longer has what the check probed.
   * `probed` is asked about the very row whose version the write is conditional on.
   * @internal
   */
  async applyHealthVerdict(
    id: string,
    verdict: {
      disabledReason: DisabledReason | null;
      failuresBefore: number;
      probed: (relayer: RelayerEntity) => boolean;
    },
    tx: Tx,
  ): Promise<'applied' | 'stale' | 'missing' | 'outdated'> {
    const relayer = await this.relayers.findById(id, tx);
    if (!relayer) return 'missing';
    if (!verdict.probed(relayer)) return 'outdated';
    const disabled = verdict.disabledReason !== null;
    if (
      relayer.systemDisabled === disabled &&
      JSON.stringify(relayer.disabledReason) === JSON.stringify(verdict.disabledReason)
    ) {
      return 'applied';
    }
    const state = { systemDisabled: disabled, disabledReason: verdict.disabledReason, updatedAt: new Date() };
    // A PATCH never writes these columns, so a check and a PATCH never overwrite each other.
    if ((await this.relayers.updateIfVersion(id, relayer.version, state, tx)) !== 'written') {
      return 'stale';
    }
    if (relayer.systemDisabled !== disabled) {
      await tx.publish(RELAYER_EVENTS.stateChanged, {
        relayer: toRelayerResponse({ ...relayer, ...state, version: relayer.version + 1 }),
        state: disabled ? 'disabled' : 'enabled',
        ...(verdict.disabledReason
          ? { disableReason: verdict.disabledReason.details }
          : { retryCount: verdict.failuresBefore }),
      } satisfies RelayerStateChangedEvent);
    }
    return 'applied';
  }

  /**
   * A health check, or a threshold written, flipped relayers' balance alerts (docs/reference/balance-alerts.md#3-events):
   * their events, in `crossings`' order, each with the relayer as GET answers it, in the transaction
   * that flipped them. The relayers are read whatever the request's scope: a network's threshold
   * reaches every relayer of the network, and each is announced to its own targets.
   * @internal
   */
  async publishBalanceCrossings(
    crossings: ReadonlyArray<{ relayerId: string; low: boolean; balance: string; threshold: string }>,
    tx: Tx,
  ): Promise<void> {
    if (crossings.length === 0) return;
    const relayers = new Map(
      (
        await this.relayers.findAnyByIds(
          crossings.map((crossing) => crossing.relayerId),
          tx,
        )
      ).map((relayer) => [relayer.id, relayer]),
    );
    for (const { relayerId, low, balance, threshold } of crossings) {
      const relayer = relayers.get(relayerId);
      if (!relayer) continue;
      await tx.publish(low ? RELAYER_EVENTS.balanceLow : RELAYER_EVENTS.balanceRestored, {
        relayer: toRelayerResponse(relayer),
        balance,
        threshold,
      } satisfies RelayerBalanceEvent);
    }
  }

  async get(id: string): Promise<RelayerResponse> {
    return (await this.getTagged(id)).data;
  }

  /** The relayer with its entity tag (docs/reference/safe-writes.md). */
  async getTagged(id: string): Promise<Tagged<RelayerResponse>> {
    const entity = await this.relayers.findById(id);
    if (!entity) throw relayerNotFound(id);
    return toTaggedRelayer(entity);
  }

  /**
   * docs/reference/relayers.md#34-the-summary: the relayers the key may see, counted in one statement;
   * with `include` `notifications`, the targets' summary beside them, for a caller that may read them
   * (403 otherwise, and without a caller).
   */
  async summary(include?: RelayerSummaryInclude, caller?: Principal): Promise<RelayerSummaryResponse> {
    const withTargets = include === 'notifications';
    if (withTargets && (caller === undefined || !grants(caller, 'notifications:read')))
      throw new ForbiddenError();
    const { total, enabled, paused, disabled, lowBalance, unchecked } = await this.relayers.countByState();
    const counts = { total, enabled, paused, disabled, low_balance: lowBalance, unchecked };
    return withTargets ? { ...counts, notifications: await this.notifications.summary() } : counts;
  }

  /**
   * The relayer health gives the list's `include=status` (RelayerStatusSource), once, at start.
   * @internal
   */
  registerStatusSource(source: RelayerStatusSource): void {
    this.statusSource = source;
  }

  /** docs/reference/relayers.md#3-read-and-delete: filtered, searched, ordered, and with `include=status` each item's status. */
  async list(query: RelayerListQueryDto): Promise<Page<RelayerListItemResponse>> {
    const { items, total } = await this.relayers.findPage(
      query.offset,
      query.per_page,
      {
        networkType: query.network_type,
        network: query.network,
        state: query.state,
        paused: query.paused === undefined ? undefined : query.paused === 'true',
        q: query.q,
      },
      query.sort === undefined ? undefined : orderOf(query.sort),
    );
    const relayers = items.map(toRelayerResponse);
    if (query.include !== 'status') return new Page(relayers, query, total);
    if (this.statusSource === null) throw new Error('include=status: no RelayerStatusSource is registered');
    const included = await this.statusSource.statusesOf(items);
    return new Page(
      relayers.map((relayer) => ({ ...relayer, ...included.get(relayer.id) })),
      query,
      total,
    );
  }

  /** The list with each relayer's stored custom RPC URLs, unmasked: for the export only (src/config-file). */
  async listWithRpcUrls(
    query: PageQueryDto,
  ): Promise<Page<{ relayer: RelayerResponse; customRpcUrls: readonly RpcUrl[] | null }>> {
    const { items, total } = await this.relayers.findPage(query.offset, query.per_page);
    const relayers = items.map((entity) => ({
      relayer: toRelayerResponse(entity),
      customRpcUrls: entity.customRpcUrls ?? null,
    }));
    return new Page(relayers, query, total);
  }

  /** With `If-Match`, only the version it matched is deleted: a write since the read makes it a 412. */
  async remove(id: string, options: { ifMatch?: IfMatch | null } = {}): Promise<string> {
    await this.writes.remove(id, (_, version, tx) => this.relayers.deleteById(id, version, tx), options);
    return 'Relayer deleted successfully';
  }
}
