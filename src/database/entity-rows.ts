import type { EntityManager, ObjectLiteral, Repository } from 'typeorm';
import { CachedRowCount } from './cached-row-count';

/**
 * Fast reads that still have one mapping per table: the column list of a plain SELECT and the
 * conversion of its rows into entities both come from the entity's metadata, and each value goes
 * through the driver's own hydration (booleans, dates, the column's transformer), so a new column
 * is declared once, on the entity. A fixed SQL string lets the driver reuse its prepared statement,
 * where a query builder would build the SQL again on every call.
 */
export class EntityRows<E extends ObjectLiteral> {
  #columns: string | undefined;
  #insert: string | undefined;
  readonly #total: CachedRowCount;

  constructor(private readonly repository: Repository<E>) {
    this.#total = new CachedRowCount(async () => {
      const rows = await this.repository.query<Array<{ n: number | string }>>(
        `SELECT COUNT(*) AS n FROM ${this.table}`,
      );
      return Number(rows[0].n);
    });
  }

  get table(): string {
    return this.repository.metadata.tableName;
  }

  /**
   * `id, name, ...`: every column of the entity as the database names them (read on first use:
   * the metadata exists once the data source is connected).
   */
  get columns(): string {
    this.#columns ??= this.repository.metadata.columns
      .map((column) => this.repository.manager.connection.driver.escape(column.databaseName))
      .join(', ');
    return this.#columns;
  }

  async findById(id: string): Promise<E | null> {
    const [entity] = await this.select(`SELECT ${this.columns} FROM ${this.table} WHERE id = ?`, [id]);
    return entity ?? null;
  }

  async existsById(id: string): Promise<boolean> {
    const rows = await this.repository.query<unknown[]>(`SELECT 1 AS found FROM ${this.table} WHERE id = ?`, [
      id,
    ]);
    return rows.length > 0;
  }

  /**
   * One page in the stable list order of every list (docs/reference/pagination.md): creation time, then id (each
   * table has an index on both), with the row count, counted at most once a second.
   */
  async findPage(offset: number, limit: number): Promise<{ items: E[]; total: number }> {
    const [items, total] = await Promise.all([
      this.select(`SELECT ${this.columns} FROM ${this.table} ORDER BY created_at, id LIMIT ? OFFSET ?`, [
        limit,
        offset,
      ]),
      this.#total.get(),
    ]);
    return { items, total };
  }

  /**
   * Inserts a row with every column of the entity, in the caller's transaction: one fixed SQL
   * string, each value through the driver's own conversion (the column's transformer, booleans,
   * dates), as `manager.insert` would write it, without building an insert query each time.
   * Errors are those of `manager.insert` (a QueryFailedError from the driver).
   */
  async insert(manager: EntityManager, values: Partial<E>): Promise<void> {
    const { metadata } = this.repository;
    const driver = manager.connection.driver;
    this.#insert ??= `INSERT INTO ${this.table} (${this.columns}) VALUES (${metadata.columns.map(() => '?').join(', ')})`;
    await manager.query(
      this.#insert,
      metadata.columns.map(
        (column): unknown => driver.preparePersistentValue(column.getEntityValue(values), column) as unknown,
      ),
    );
  }

  /** Call after every insert or delete, so that this instance's lists show the true total at once. */
  countChanged(): void {
    this.#total.invalidate();
  }

  /** Runs a SELECT of `columns` (with `?` parameters) and returns its rows as entities. */
  async select(sql: string, parameters: unknown[] = []): Promise<E[]> {
    const rows = await this.repository.query<Array<Record<string, unknown>>>(sql, parameters);
    return rows.map((row) => this.hydrate(row));
  }

  private hydrate(row: Record<string, unknown>): E {
    const { metadata, manager } = this.repository;
    const entity = metadata.create() as E;
    for (const column of metadata.columns) {
      column.setEntityValue(
        entity,
        manager.connection.driver.prepareHydratedValue(row[column.databaseName], column),
      );
    }
    return entity;
  }
}
