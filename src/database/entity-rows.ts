import type { ObjectLiteral, Repository } from 'typeorm';

/**
 * Fast reads that still have one mapping per table: the column list of a plain SELECT and the
 * conversion of its rows into entities both come from the entity's metadata, and each value goes
 * through the driver's own hydration (booleans, dates, the column's transformer), so a new column
 * is declared once, on the entity. A fixed SQL string lets the driver reuse its prepared statement,
 * where a query builder would build the SQL again on every call.
 */
export class EntityRows<E extends ObjectLiteral> {
  #columns: string | undefined;

  constructor(private readonly repository: Repository<E>) {}

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
