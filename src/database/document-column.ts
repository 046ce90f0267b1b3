import { Column, DataSource, type ColumnOptions } from 'typeorm';

/** MySQL's type for a document: 16 MiB, far above the 1 MiB request body limit. */
export const MYSQL_DOCUMENT_TYPE = 'mediumtext';

/** The document columns of each entity class, by property name. */
const documentColumns = new WeakMap<object, Set<string>>();

/**
 * A column that holds a whole resource, an audit snapshot, a webhook body or an idempotent answer,
 * which docs/reference/hardening.md wants stored whole on every database: TEXT on SQLite (unbounded there),
 * MEDIUMTEXT on MySQL, whose TEXT stops at 64 KiB. TypeORM takes one type per column for every
 * driver and refuses `mediumtext` on SQLite, so the MySQL type is set by ServiceDataSource below,
 * which keeps the entities in agreement with the migrations (1796000000000-WidenDocumentColumns).
 */
export function DocumentColumn(
  options: Pick<ColumnOptions, 'name' | 'nullable' | 'transformer'> = {},
): PropertyDecorator {
  return (target, property) => {
    const columns = documentColumns.get(target.constructor) ?? new Set<string>();
    columns.add(String(property));
    documentColumns.set(target.constructor, columns);
    Column({ ...options, type: 'text' })(target, property);
  };
}

/** The service's data source (the application's and the CLI's): the entities' document columns typed per database. */
export class ServiceDataSource extends DataSource {
  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (this.options.type !== 'mysql') return;
    for (const entity of this.entityMetadatas) {
      for (const column of entity.columns) {
        const target = column.target;
        if (typeof target === 'function' && documentColumns.get(target)?.has(column.propertyName)) {
          column.type = MYSQL_DOCUMENT_TYPE;
        }
      }
    }
  }
}
