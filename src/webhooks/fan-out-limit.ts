import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import type { ReadTx } from '../database/transactions';
import { ANY_RELAYER } from './subscription-relayer.entity';
import { SubscriptionsRepository, type Hearers } from './subscriptions.repository';
import { tooManyTargets } from './webhooks.errors';

/**
 * docs/reference/webhooks.md#65-how-many-targets-may-hear-a-relayer: at most
 * WEBHOOK_MAX_TARGETS_PER_RELAYER targets hear one relayer (its own, those subscribed to it by id, and
 * those subscribed to `*`), so that one relayer change writes and sends at most that many deliveries.
 * Each check runs in the transaction of the change, after its write, on what the write left (locking
 * reads on MySQL: SubscriptionsRepository.hearersOf), and refuses only a change that adds a hearer: a
 * relayer heard by more already (the limit lowered) refuses no other change.
 */
@Injectable()
export class FanOutLimit {
  private readonly max: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly subscriptions: SubscriptionsRepository,
  ) {
    this.max = config.webhooks.maxTargetsPerRelayer;
  }

  /**
   * A relayer whose own target is now `ownTarget` (created with it, or PATCHed to it, in this
   * transaction, which holds the relayer's row): one locking read of its subscribers.
   */
  async assertOwnTarget(relayerId: string, ownTarget: string, tx: ReadTx): Promise<void> {
    const subscribed = await this.subscriptions.subscribersOf(relayerId, tx);
    if (subscribed.has(ownTarget)) return;
    if (subscribed.size + 1 > this.max) throw tooManyTargets(this.max, [relayerId]);
  }

  /** The subscription of `notificationId` went from `before` to `after` (relayer ids, `["*"]` or null). */
  async assertSubscription(
    notificationId: string,
    before: readonly string[] | null,
    after: readonly string[] | null,
    tx: ReadTx,
  ): Promise<void> {
    // Its own relayers only, or every relayer already: it hears no relayer it did not.
    if (after === null || before?.includes(ANY_RELAYER)) return;
    const former = new Set(before ?? []);
    if (after.includes(ANY_RELAYER)) return this.assertEveryRelayer(notificationId, former, tx);
    const added = after.filter((id) => !former.has(id));
    if (added.length === 0) return;
    const hearers = await this.subscriptions.hearersOf(added, tx);
    const exceeded = added.filter((id) => this.exceededBy(notificationId, hearers.get(id)));
    if (exceeded.length > 0) throw tooManyTargets(this.max, exceeded);
  }

  /**
   * `notificationId` now hears every relayer: those it did not hear that more than `max` targets hear.
   * With S targets on `*`, a relayer exceeds when more than max - S others hear it: first those
   * subscribed to by at least that many (a grouped read of every subscription by id), then, when the
   * `*` subscribers alone are max, every relayer with a target of its own among them.
   */
  private async assertEveryRelayer(
    notificationId: string,
    former: ReadonlySet<string>,
    tx: ReadTx,
  ): Promise<void> {
    const everyRelayer = await this.subscriptions.subscribersOfEvery(tx);
    if (everyRelayer.length > this.max) throw tooManyTargets(this.max, [ANY_RELAYER]);
    const room = this.max - everyRelayer.length;
    const candidates = [...(await this.subscriptions.subscribedByAtLeast(Math.max(room, 1), tx)).keys()];
    const hearers = await this.subscriptions.hearersOf(
      candidates.filter((id) => !former.has(id)),
      tx,
    );
    const exceeded = [...hearers]
      .filter(([, heard]) => this.exceededBy(notificationId, heard))
      .map(([id]) => id);
    if (room === 0) {
      const owning = await this.subscriptions.relayersWithOwnTargetBesides(everyRelayer, tx);
      exceeded.push(...owning.filter((id) => !former.has(id)));
    }
    if (exceeded.length > 0) throw tooManyTargets(this.max, exceeded);
  }

  /** Heard by more than max now, `notificationId` among them, and it was not its own target before. */
  private exceededBy(notificationId: string, hearers: Hearers | undefined): boolean {
    if (!hearers || hearers.own === notificationId) return false;
    const all = new Set(hearers.subscribed);
    if (hearers.own !== null) all.add(hearers.own);
    return all.size > this.max;
  }
}
