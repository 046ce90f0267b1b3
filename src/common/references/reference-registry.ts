import type { EntityManager } from 'typeorm';

/**
 * The port through which a resource learns who still uses one of its rows, without knowing their
 * tables: a module whose resources reference it (relayers reference notifications and signers)
 * registers one.
 */
export interface ReferenceUsers {
  /** What the ids name, e.g. "relayers". */
  readonly kind: string;
  /**
   * Ids of the resources that use the referenced row, in id order, at most `limit`; with a
   * manager, read in the caller's transaction so that no new user can appear before it commits.
   */
  findIdsUsing(referencedId: string, limit: number, manager?: EntityManager): Promise<string[]>;
}

/** Shown at most in an "in use" message. */
export const MAX_USERS_NAMED = 50;

/** Where the modules that reference a resource register their ReferenceUsers ("who uses this"). */
export class ReferenceRegistry {
  private readonly users: ReferenceUsers[] = [];

  register(users: ReferenceUsers): void {
    this.users.push(users);
  }

  /** One line per kind that uses the row, e.g. `relayers: a, b`; empty when free. */
  async describeUsesOf(referencedId: string, manager?: EntityManager): Promise<string[]> {
    const lines: string[] = [];
    for (const users of this.users) {
      const ids = await users.findIdsUsing(referencedId, MAX_USERS_NAMED, manager);
      if (ids.length > 0) lines.push(`${users.kind}: ${ids.join(', ')}`);
    }
    return lines;
  }
}
