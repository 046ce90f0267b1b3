import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, ObjectLiteral, Repository } from 'typeorm';
import { isUniqueViolation } from '../common/errors/database-errors';
import { CachedRowCount } from './cached-row-count';
import { DatabaseDialect } from './dialects/database-dialect';
import { asColumnValues } from './json-column';

/** The body of EntityRepository(entity), a named class so that its type can be declared (the package's types). */
export abstract class EntityRows<E extends ObjectLiteral> {
  #columns: string | undefined;
  #byId: string | undefined;
  #insert: string | undefined;
  readonly #total = new CachedRowCount(async () => {
    const rows = await this.repository.query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM ${this.table}`,
    );
    return Number(rows[0].n);
  });

  constructor(
    protected readonly repository: Repository<E>,
    protected readonly dialect: DatabaseDialect,
  ) {}

  get table(): string {
    return this.repository.metadata.tableName;
  }

  /** Every column as the database names them (the metadata exists once connected). */
  get columns(): string {
    this.#columns ??= this.repository.metadata.columns
      .map((column) => this.repository.manager.connection.driver.escape(column.databaseName))
      .join(', ');
    return this.#columns;
  }

  /**
   * Inside a transaction pass its manager: a read outside it takes a second pool connection, and with as
   * many such transactions as the pool has connections the pool stalls for good (MySQL).
   */
  async findById(id: string, manager?: EntityManager): Promise<E | null> {
    this.#byId ??= `SELECT ${this.columns} FROM ${this.table} WHERE ${this.primaryKey} = ?`;
    const [found] = await this.select(this.#byId, [id], manager);
    return found ?? null;
  }

  /** The rows of `ids` that exist, in no particular order; one statement. */
  async findByIds(ids: readonly string[], manager?: EntityManager): Promise<E[]> {
    if (ids.length === 0) return [];
    const list = ids.map(() => '?').join(', ');
    return this.select(
      `SELECT ${this.columns} FROM ${this.table} WHERE ${this.primaryKey} IN (${list})`,
      [...ids],
      manager,
    );
  }

  /**
   * For a table of leased rows (`lease_owner`, `lease_until`): leases those of `ids` that still meet
   * `condition` to `owner` until `until` with one conditional UPDATE, so that another instance's
   * claim of the same rows wins or loses each row whole (on Galera too), then reads the rows it took,
   * in the order of `ids`.
   */
  protected async claimByIds(
    manager: EntityManager,
    ids: readonly string[],
    lease: { owner: string; until: Date },
    condition: string,
    parameters: ObjectLiteral,
  ): Promise<E[]> {
    // `IN ()` is a syntax error on MySQL.
    if (ids.length === 0) return [];
    await manager
      .createQueryBuilder()
      .update(this.repository.target)
      // The columns every leased table has (RelayerCheckEntity, DeliveryEntity).
      .set(asColumnValues({ leaseOwner: lease.owner, leaseUntil: lease.until } as unknown as Partial<E>))
      .where(`${this.primaryKey} IN (:...ids) AND ${condition}`, { ...parameters, ids })
      .execute();
    const key = this.repository.metadata.primaryColumns[0];
    const taken = new Map(
      (await this.findByIds(ids, manager))
        .filter((row) => (row as { leaseOwner?: unknown }).leaseOwner === lease.owner)
        .map((row) => [key.getEntityValue(row) as string, row]),
    );
    return ids.flatMap((id): E[] => {
      const row = taken.get(id);
      return row ? [row] : [];
    });
  }

  async existsById(id: string): Promise<boolean> {
    const rows = await this.repository.query<unknown[]>(
      `SELECT 1 AS found FROM ${this.table} WHERE ${this.primaryKey} = ?`,
      [id],
    );
    return rows.length > 0;
  }

  /** One page in the order of every list (docs/reference/pagination.md), with the row count. */
  async findPage(offset: number, limit: number): Promise<{ items: E[]; total: number }> {
    const [items, total] = await Promise.all([
      this.select(`SELECT ${this.columns} FROM ${this.table} ORDER BY created_at, id LIMIT ? OFFSET ?`, [
        limit,
        offset,
      ]),
      this.count(),
    ]);
    return { items, total };
  }

  /** Counted at most once a second (CachedRowCount). */
  count(): Promise<number> {
    return this.#total.get();
  }

  /** Every column, each value converted by the driver as `manager.insert` would (and with its errors). */
  async insert(manager: EntityManager, values: Partial<E>): Promise<unknown> {
    const { metadata } = this.repository;
    const driver = manager.connection.driver;
    this.#insert ??= `INSERT INTO ${this.table} (${this.columns}) VALUES (${metadata.columns.map(() => '?').join(', ')})`;
    try {
      return await manager.query(
        this.#insert,
        metadata.columns.map(
          (column): unknown =>
            driver.preparePersistentValue(column.getEntityValue(values), column) as unknown,
        ),
      );
    } finally {
      this.#total.invalidate();
    }
  }

  /** False when the key is taken (also when two requests race). */
  async insertNew(manager: EntityManager, values: Partial<E>): Promise<boolean> {
    try {
      await this.insert(manager, values);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Writes `values` and bumps the version; with `version`, only while the row still has it, else false. */
  protected async updateVersioned(
    manager: EntityManager,
    id: string,
    version: number | undefined,
    values: Partial<E>,
  ): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(this.repository.target)
      .set({ ...asColumnValues(values), version: () => 'version + 1' })
      .where(this.byId(version), { id, version })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** With `version`, only while the row still has it; false when no such row (at that version). */
  protected async deleteVersioned(manager: EntityManager, id: string, version?: number): Promise<boolean> {
    try {
      const result = await manager
        .createQueryBuilder()
        .delete()
        .from(this.repository.target)
        .where(this.byId(version), { id, version })
        .execute();
      return (result.affected ?? 0) > 0;
    } finally {
      this.#total.invalidate();
    }
  }

  protected async select(sql: string, parameters: unknown[] = [], manager?: EntityManager): Promise<E[]> {
    const rows = await (manager ?? this.repository.manager).query<Array<Record<string, unknown>>>(
      sql,
      parameters,
    );
    return rows.map((row) => this.hydrate(row));
  }

  private byId(version?: number): string {
    return `${this.primaryKey} = :id${version === undefined ? '' : ' AND version = :version'}`;
  }

  private get primaryKey(): string {
    return this.repository.metadata.primaryColumns[0].databaseName;
  }

  /** A row read by column name (a SELECT of `columns`, or of them with another table's joined). */
  protected hydrate(row: Record<string, unknown>): E {
    const { metadata, manager } = this.repository;
    const found = metadata.create() as E;
    for (const column of metadata.columns) {
      column.setEntityValue(
        found,
        manager.connection.driver.prepareHydratedValue(row[column.databaseName], column),
      );
    }
    return found;
  }
}

/**
 * The base of every repository: `class WidgetsRepository extends EntityRepository(WidgetEntity)`. Fixed
 * SQL strings: the driver reuses its prepared statement, where a query builder builds SQL on every call.
 */
export function EntityRepository<E extends ObjectLiteral>(
  entity: new () => E,
): new (repository: Repository<E>, dialect: DatabaseDialect) => EntityRows<E> {
  @Injectable()
  class Rows extends EntityRows<E> {
    constructor(@InjectRepository(entity) repository: Repository<E>, dialect: DatabaseDialect) {
      // Without this the service starts and the first query of the table answers 500.
      if (!Object.values(repository.manager.connection.options.entities ?? {}).includes(entity)) {
        throw new Error(`${entity.name} is missing from ENTITIES in src/database/data-source-options.ts`);
      }
      super(repository, dialect);
    }
  }
  return Rows;
}
