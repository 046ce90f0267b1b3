import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The port through which the catalogue learns who uses a signer, without knowing their tables:
 * a module whose resources reference signers (relayers) registers one.
 */
export interface SignerUsers {
  /** What the ids name, e.g. "relayers". */
  readonly kind: string;
  /**
   * Ids of the resources that use the signer, in id order, at most `limit`, read in the caller's
   * transaction so that no new user can appear before it commits.
   */
  findIdsUsing(manager: EntityManager, signerId: string, limit: number): Promise<string[]>;
}

/** Shown at most in a "signer in use" message. */
const MAX_USERS_NAMED = 50;

/** Where the modules that reference signers register their SignerUsers. */
@Injectable()
export class SignerUsersRegistry {
  private readonly users: SignerUsers[] = [];

  register(users: SignerUsers): void {
    this.users.push(users);
  }

  /** One line per kind that uses the signer, e.g. `relayers: a, b`; empty when free. */
  async describeUsesOf(manager: EntityManager, signerId: string): Promise<string[]> {
    const lines: string[] = [];
    for (const users of this.users) {
      const ids = await users.findIdsUsing(manager, signerId, MAX_USERS_NAMED);
      if (ids.length > 0) lines.push(`${users.kind}: ${ids.join(', ')}`);
    }
    return lines;
  }
}
