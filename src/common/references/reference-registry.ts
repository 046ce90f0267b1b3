import type { EntityManager } from 'typeorm';

/** Who still uses a row, without the referenced module knowing the users' tables. */
export interface ReferenceUsers {
  readonly kind: string;
  /** In id order; with a manager, in the caller's transaction, so that no new user appears before it commits. */
  findIdsUsing(referencedId: string, limit: number, manager?: EntityManager): Promise<string[]>;
}

export const MAX_USERS_NAMED = 50;

export class ReferenceRegistry {
  private readonly users: ReferenceUsers[] = [];

  register(users: ReferenceUsers): void {
    this.users.push(users);
  }

  async describeUsesOf(referencedId: string, manager?: EntityManager): Promise<string[]> {
    const lines: string[] = [];
    for (const users of this.users) {
      const ids = await users.findIdsUsing(referencedId, MAX_USERS_NAMED, manager);
      if (ids.length > 0) lines.push(`${users.kind}: ${ids.join(', ')}`);
    }
    return lines;
  }
}
