import { Injectable } from '@nestjs/common';

/**
 * The port through which notifications learn who still reports to a target, without knowing
 * their tables: a module whose resources reference notifications (relayers) registers one.
 */
export interface NotificationUsers {
  /** What the ids name, e.g. "relayers". */
  readonly kind: string;
  /** Ids of the resources that reference the notification, in id order, at most `limit`. */
  findIdsUsing(notificationId: string, limit: number): Promise<string[]>;
}

/** Shown at most in a "notification in use" message. */
export const MAX_USERS_NAMED = 50;

/** Where the modules that reference notifications register their NotificationUsers. */
@Injectable()
export class NotificationUsersRegistry {
  private readonly users: NotificationUsers[] = [];

  register(users: NotificationUsers): void {
    this.users.push(users);
  }

  /** One line per kind that still references the notification, e.g. `relayers: a, b`; empty when free. */
  async describeUsesOf(notificationId: string): Promise<string[]> {
    const found = await Promise.all(
      this.users.map(async (users) => ({
        kind: users.kind,
        ids: await users.findIdsUsing(notificationId, MAX_USERS_NAMED),
      })),
    );
    return found.filter(({ ids }) => ids.length > 0).map(({ kind, ids }) => `${kind}: ${ids.join(', ')}`);
  }
}
