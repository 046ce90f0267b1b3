import { Injectable } from '@nestjs/common';
import { holdsAll, type Grant, type Principal, type RoleGrant } from '../common/auth/principal';
import { RelayerScope } from '../common/auth/relayer-scope';
import { ForbiddenError } from '../common/errors/domain-errors';
import { Page, PageQueryDto } from '../common/http/page.dto';
import { ResourceWrites, STALE } from '../database/resource-writes';
import { Transactions } from '../database/transactions';
import { CreateRoleDto, RoleResponse, UpdateRoleDto } from './dto/role.dto';
import { RoleEntity } from './role.entity';
import { duplicateRole, roleNotFound } from './roles.errors';
import { RolesRepository, type RoleChanges } from './roles.repository';

export function toRoleResponse(row: RoleEntity): RoleResponse {
  return {
    id: row.id,
    permissions: [...row.permissions],
    ...(row.relayerIds ? { relayer_ids: [...row.relayerIds] } : {}),
    groups: [...row.groups],
  };
}

/** What a person holds: the roles their groups meet, each with what it grants where (docs/access.md#roles-from-the-providers-groups-to-permissions). */
export interface Holding {
  readonly roles: readonly string[];
  readonly grants: readonly RoleGrant[];
}

/** The roles that name any of `groups`; null when none does. */
export function holdingOf(roles: readonly RoleEntity[], groups: readonly string[]): Holding | null {
  const held = roles.filter((role) => role.groups.some((group) => groups.includes(group)));
  if (held.length === 0) return null;
  return {
    roles: held.map((role) => role.id),
    grants: held.map((role) => ({
      permissions: [...role.permissions],
      ...(role.relayerIds && { relayerIds: [...role.relayerIds] }),
    })),
  };
}

/**
 * A role grants what a key would (docs/access.md#roles-from-the-providers-groups-to-permissions), so the rules of keys hold for it: a caller
 * creates, changes or deletes only a role holding no permission it lacks and no scope beyond its own,
 * and sees only the roles whose scope lies inside its own (any other is 404, as an unknown one).
 */
@Injectable()
export class RolesService {
  private readonly writes: ResourceWrites<RoleEntity, RoleResponse>;

  constructor(
    private readonly roles: RolesRepository,
    transactions: Transactions,
  ) {
    this.writes = new ResourceWrites(transactions, {
      name: 'role',
      notFound: () => roleNotFound(),
      read: (id, tx) => this.roles.findById(id, tx),
      toResponse: toRoleResponse,
    });
  }

  /** What the person in `groups` holds now: read at every request (a role change applies at once). */
  async holding(groups: readonly string[]): Promise<Holding | null> {
    return holdingOf(await this.roles.all(), groups);
  }

  /** The roles read once, for deciding what many people hold (a list of sessions). */
  async holdings(): Promise<(groups: readonly string[]) => Holding | null> {
    const roles = await this.roles.all();
    return (groups) => holdingOf(roles, groups);
  }

  async create(dto: CreateRoleDto, caller: Principal): Promise<RoleResponse> {
    const relayerIds = dto.relayer_ids ? [...new Set(dto.relayer_ids)] : null;
    assertGrantable(caller, dto.permissions, relayerIds);
    const created = await this.writes.create(async (tx) => {
      const now = new Date();
      const row = Object.assign(new RoleEntity(), {
        id: dto.id,
        permissions: [...new Set(dto.permissions)],
        relayerIds,
        groups: [...new Set(dto.groups)],
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      if (!(await this.roles.insertNew(row, tx))) throw duplicateRole();
      return row;
    });
    return created.data;
  }

  async list(query: PageQueryDto, caller: Principal): Promise<Page<RoleResponse>> {
    const seen = (await this.roles.all()).filter((row) => sees(caller, row));
    const items = seen.slice(query.offset, query.offset + query.per_page).map(toRoleResponse);
    return new Page(items, query, seen.length);
  }

  async get(id: string, caller: Principal): Promise<RoleResponse> {
    return toRoleResponse(await this.findSeen(id, caller));
  }

  async update(id: string, dto: UpdateRoleDto, caller: Principal): Promise<RoleResponse> {
    const updated = await this.writes.update(
      id,
      (current): (RoleChanges & Pick<RoleEntity, 'updatedAt'>) | null => {
        if (!sees(caller, current)) throw roleNotFound();
        assertGrantable(caller, current.permissions, current.relayerIds);
        const changes: RoleChanges = {
          ...(dto.permissions && { permissions: [...new Set(dto.permissions)] }),
          ...(dto.relayer_ids !== undefined && {
            relayerIds: dto.relayer_ids ? [...new Set(dto.relayer_ids)] : null,
          }),
          ...(dto.groups && { groups: [...new Set(dto.groups)] }),
        };
        assertGrantable(
          caller,
          changes.permissions ?? current.permissions,
          changes.relayerIds === undefined ? current.relayerIds : changes.relayerIds,
        );
        return { ...changes, updatedAt: new Date() };
      },
      async (current, changes, tx) =>
        (await this.roles.update(current.id, changes, current.version, tx)) ? undefined : STALE,
    );
    return updated.data;
  }

  async remove(id: string, caller: Principal): Promise<string> {
    await this.writes.remove(id, async (row, version, tx) => {
      if (!sees(caller, row)) throw roleNotFound();
      assertGrantable(caller, row.permissions, row.relayerIds);
      return this.roles.delete(row.id, version, tx);
    });
    return 'Role deleted successfully';
  }

  private async findSeen(id: string, caller: Principal): Promise<RoleEntity> {
    const row = await this.roles.findById(id);
    if (!row || !sees(caller, row)) throw roleNotFound();
    return row;
  }
}

/** A role whose scope lies inside the caller's (every role, to an unscoped caller). */
function sees(caller: Principal, row: Pick<RoleEntity, 'relayerIds'>): boolean {
  return RelayerScope.contains(RelayerScope.of(caller.relayerIds), RelayerScope.of(row.relayerIds));
}

/** A role grants only what the caller holds and sees (docs/reference/hardening.md, as for keys): else 403. */
function assertGrantable(
  caller: Principal,
  permissions: readonly Grant[],
  relayerIds: readonly string[] | null,
): void {
  if (!holdsAll(caller, permissions) || !sees(caller, { relayerIds: relayerIds ? [...relayerIds] : null })) {
    throw new ForbiddenError();
  }
}
