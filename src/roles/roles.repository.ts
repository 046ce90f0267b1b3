import { Injectable } from '@nestjs/common';
import { EntityRepository } from '../database/entity-rows';
import type { ReadTx } from '../database/transactions';
import { RoleEntity } from './role.entity';

export type RoleChanges = Partial<Pick<RoleEntity, 'permissions' | 'relayerIds' | 'groups'>>;

/** Roles: a handful of rows, read whole at every request a person makes (docs/access.md#roles-from-the-providers-groups-to-permissions). */
@Injectable()
export class RolesRepository extends EntityRepository(RoleEntity) {
  /** Every role, in the order of every list (creation time, then id). */
  all(tx?: ReadTx): Promise<RoleEntity[]> {
    return this.select(`SELECT ${this.columns} FROM ${this.table} ORDER BY created_at, id`, [], tx);
  }

  /** Only while the row has `version`. */
  update(
    id: string,
    changes: RoleChanges & Pick<RoleEntity, 'updatedAt'>,
    version: number,
    tx: ReadTx,
  ): Promise<boolean> {
    return this.updateVersioned(id, version, changes, tx);
  }

  delete(id: string, version: number | undefined, tx: ReadTx): Promise<boolean> {
    return this.deleteVersioned(id, version, tx);
  }
}
