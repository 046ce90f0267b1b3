import type { EntityManager } from 'typeorm';

/** Who still uses a row, without the referenced module knowing the users' tables. */
export interface ReferenceUsers {
  readonly kind: string;
  /**
   * In id order, those the request's key may see; with a manager, in the caller's transaction, so
   * that no new user appears before it commits.
   */
  findIdsUsing(referencedId: string, limit: number, manager?: EntityManager): Promise<string[]>;
  /**
   * How many users the request's key may not see (findIdsUsing left them out): counted in the
   * answer, never named (docs/reference/keys-and-audit.md#3-relayer-scope). Absent: none.
   */
  countHiddenUsing?(referencedId: string, manager?: EntityManager): Promise<number>;
}

export const MAX_USERS_NAMED = 50;

export class ReferenceRegistry {
  private readonly users: ReferenceUsers[] = [];

  register(users: ReferenceUsers): void {
    this.users.push(users);
  }

  /** One line per kind of user: `relayers: a, b`, and `... and 2 more outside this key's scope`. */
  async describeUsesOf(referencedId: string, manager?: EntityManager): Promise<string[]> {
    const lines: string[] = [];
    for (const users of this.users) {
      const ids = await users.findIdsUsing(referencedId, MAX_USERS_NAMED, manager);
      const hidden = (await users.countHiddenUsing?.(referencedId, manager)) ?? 0;
      if (ids.length > 0 || hidden > 0) lines.push(`${users.kind}: ${describeUsers(ids, hidden)}`);
    }
    return lines;
  }
}

function describeUsers(ids: readonly string[], hidden: number): string {
  if (hidden === 0) return ids.join(', ');
  const outside = `${hidden} ${ids.length > 0 ? 'more ' : ''}outside this key's scope`;
  return ids.length > 0 ? `${ids.join(', ')} and ${outside}` : outside;
}
