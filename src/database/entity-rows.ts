import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, ObjectLiteral, Repository } from 'typeorm';
import { RelayerScope, type ScopeCondition } from '../common/auth/relayer-scope';
import { isUniqueViolation } from '../common/errors/database-errors';
import { CachedRowCount } from './cached-row-count';
import { DatabaseDialect } from './dialects/database-dialect';
import { asColumnValues } from './json-column';
import type { ReadTx } from './transactions';

const UNSCOPED: ScopeCondition = { sql: '', parameters: [] };

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
   * The column the request's key scope filters on (docs/reference/keys-and-audit.md#3-relayer-scope):
   * a row outside the scope is missing to every read here (findById, findByIds, existsById,
   * findPage). Undefined: the table is not scoped.
   */
  protected readonly scopeColumn: string | undefined = undefined;

  /** The current request's scope as ` AND <condition>` on `scopeColumn` (ids compare exactly); '' for none. */
  protected scoped(): ScopeCondition {
    return this.scopeColumn === undefined ? UNSCOPED : RelayerScope.filter(this.scopeColumn);
  }

  /**
   * Inside a unit of work pass it: a read outside it takes a second pool connection, and with as
   * many such transactions as the pool has connections the pool stalls for good (MySQL).
   */
  findById(id: string, tx?: ReadTx): Promise<E | null> {
    return this.findOne(id, '', tx);
  }

  /** In the caller's transaction, locked until it ends (MySQL; SQLite has one writer at a time): writes of the row queue. */
  findForUpdate(id: string, tx: ReadTx): Promise<E | null> {
    return this.findOne(id, this.dialect.lockingRead('update'), tx);
  }

  /** The rows of `ids` that exist, in no particular order; one statement. */
  async findByIds(ids: readonly string[], tx?: ReadTx): Promise<E[]> {
    if (ids.length === 0) return [];
    const scope = this.scoped();
    const list = ids.map(() => '?').join(', ');
    return this.select(
      `SELECT ${this.columns} FROM ${this.table} WHERE ${this.primaryKey} IN (${list})${scope.sql}`,
      [...ids, ...scope.parameters],
      tx,
    );
  }

  /**
   * For a table of leased rows (`lease_owner`, `lease_until`): leases those of `ids` that still meet
   * `condition` to `owner` until `until` with one conditional UPDATE, so that another instance's
   * claim of the same rows wins or loses each row whole (on Galera too), then reads the rows it took,
   * in the order of `ids`.
   */
  protected async claimByIds(
    ids: readonly string[],
    lease: { owner: string; until: Date },
    condition: string,
    parameters: ObjectLiteral,
    tx: ReadTx,
  ): Promise<E[]> {
    // `IN ()` is a syntax error on MySQL.
    if (ids.length === 0) return [];
    await tx.manager
      .createQueryBuilder()
      .update(this.repository.target)
      // The columns every leased table has (RelayerCheckEntity, DeliveryEntity).
      .set(asColumnValues({ leaseOwner: lease.owner, leaseUntil: lease.until } as unknown as Partial<E>))
      .where(`${this.primaryKey} IN (:...ids) AND ${condition}`, { ...parameters, ids })
      .execute();
    const key = this.repository.metadata.primaryColumns[0];
    const taken = new Map(
      (await this.findByIds(ids, tx))
        .filter((row) => (row as { leaseOwner?: unknown }).leaseOwner === lease.owner)
        .map((row) => [key.getEntityValue(row) as string, row]),
    );
    return ids.flatMap((id): E[] => {
      const row = taken.get(id);
      return row ? [row] : [];
    });
  }

  async existsById(id: string): Promise<boolean> {
    const scope = this.scoped();
    const rows = await this.repository.query<unknown[]>(
      `SELECT 1 AS found FROM ${this.table} WHERE ${this.primaryKey} = ?${scope.sql}`,
      [id, ...scope.parameters],
    );
    return rows.length > 0;
  }

  /** One page in the order of every list (docs/reference/pagination.md), with the row count. */
  findPage(offset: number, limit: number): Promise<{ items: E[]; total: number }> {
    return this.findPageWhere(offset, limit, UNSCOPED);
  }

  /**
   * A page of the rows meeting `filter` (` AND <conditions>`) and the request's scope, counted in the
   * query; without either, the row count cached for a second.
   */
  protected async findPageWhere(
    offset: number,
    limit: number,
    filter: { readonly sql: string; readonly parameters: readonly unknown[] },
  ): Promise<{ items: E[]; total: number }> {
    const scope = this.scoped();
    const where = `WHERE 1 = 1${filter.sql}${scope.sql}`;
    const parameters = [...filter.parameters, ...scope.parameters];
    const [items, total] = await Promise.all([
      this.select(
        `SELECT ${this.columns} FROM ${this.table} ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [...parameters, limit, offset],
      ),
      where === 'WHERE 1 = 1'
        ? this.count()
        : this.repository
            .query<Array<{ n: number | string }>>(
              `SELECT COUNT(*) AS n FROM ${this.table} ${where}`,
              parameters,
            )
            .then((rows) => Number(rows[0].n)),
    ]);
    return { items, total };
  }

  /** Counted at most once a second (CachedRowCount). */
  count(): Promise<number> {
    return this.#total.get();
  }

  /** Every column, each value converted by the driver as `manager.insert` would (and with its errors). */
  async insert(values: Partial<E>, { manager }: ReadTx): Promise<unknown> {
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
  async insertNew(values: Partial<E>, tx: ReadTx): Promise<boolean> {
    try {
      await this.insert(values, tx);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Writes `values` and bumps the version; with `version`, only while the row still has it, else false. */
  protected async updateVersioned(
    id: string,
    version: number | undefined,
    values: Partial<E>,
    { manager }: ReadTx,
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
  protected async deleteVersioned(
    id: string,
    version: number | undefined,
    { manager }: ReadTx,
  ): Promise<boolean> {
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

  /** `value` as the column of `property` stores it (a Date as SQLite's text): a parameter of raw SQL. */
  protected parameter(property: keyof E & string, value: unknown): unknown {
    const column = this.repository.metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${this.table} has no column for ${property}`);
    return this.repository.manager.connection.driver.preparePersistentValue(value, column) as unknown;
  }

  protected async select(sql: string, parameters: unknown[] = [], tx?: ReadTx): Promise<E[]> {
    const rows = await this.managerOf(tx).query<Array<Record<string, unknown>>>(sql, parameters);
    return rows.map((row) => this.hydrate(row));
  }

  /** The unit of work's manager; without one, the repository's own connection (a read outside any). */
  protected managerOf(tx?: ReadTx): EntityManager {
    return (tx ?? this.repository).manager;
  }

  private async findOne(id: string, lock: string, tx?: ReadTx): Promise<E | null> {
    const scope = this.scoped();
    this.#byId ??= `SELECT ${this.columns} FROM ${this.table} WHERE ${this.primaryKey} = ?`;
    const [found] = await this.select(this.#byId + scope.sql + lock, [id, ...scope.parameters], tx);
    return found ?? null;
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
        throw new Error(
          `${entity.name} is not an entity of the data source: give it to TypeOrmModule.forFeature in its module (docs/architecture.md#adding-a-resource)`,
        );
      }
      super(repository, dialect);
    }
  }
  return Rows;
}
