import type { EntityManager } from 'typeorm';

/** The caller's unit of work: the database's `ReadTx`, which src/common may not import. */
type UnitOfWork = { readonly manager: EntityManager };

/** Who still uses a row, without the referenced module knowing the users' tables. */
export interface ReferenceUsers {
  readonly kind: string;
  /**
   * In id order, those the request's key may see; with `tx`, in the caller's transaction, so that no
   * new user appears before it commits.
   */
  findIdsUsing(referencedId: string, limit: number, tx?: UnitOfWork): Promise<string[]>;
  /**
   * How many users the request's key may not see (findIdsUsing left them out): counted in the
   * answer, never named (docs/reference/keys-and-audit.md#3-relayer-scope). Absent: none.
   */
  countHiddenUsing?(referencedId: string, tx?: UnitOfWork): Promise<number>;
}

export const MAX_USERS_NAMED = 50;

export class ReferenceRegistry {
  private readonly users: ReferenceUsers[] = [];

  register(users: ReferenceUsers): void {
    this.users.push(users);
  }

  /**
   * One line per kind of user: `relayers: a, b`; past MAX_USERS_NAMED, `a, …, x and more`; and
   * `... and 2 more outside this key's scope` (docs/reference/keys-and-audit.md#3-relayer-scope).
   */
  async describeUsesOf(referencedId: string, tx?: UnitOfWork): Promise<string[]> {
    const lines: string[] = [];
    for (const users of this.users) {
      // One more than is named: whether there are more is said, never guessed.
      const found = await users.findIdsUsing(referencedId, MAX_USERS_NAMED + 1, tx);
      const hidden = (await users.countHiddenUsing?.(referencedId, tx)) ?? 0;
      if (found.length > 0 || hidden > 0) {
        const named = found.slice(0, MAX_USERS_NAMED);
        lines.push(`${users.kind}: ${describeUsers(named, found.length > named.length, hidden)}`);
      }
    }
    return lines;
  }
}

function describeUsers(ids: readonly string[], more: boolean, hidden: number): string {
  const named = more ? `${ids.join(', ')} and more` : ids.join(', ');
  if (hidden === 0) return named;
  if (ids.length === 0) return `${hidden} outside this key's scope`;
  return `${named}${more ? ',' : ''} and ${hidden} more outside this key's scope`;
}
