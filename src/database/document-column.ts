import { Column, DataSource, type ColumnOptions, type DataSourceOptions } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import type { DatabaseDialect } from './dialects/database-dialect';
import { MysqlDialect } from './dialects/mysql.dialect';
import { SqliteDialect } from './dialects/sqlite.dialect';

/** The document columns of each entity class, by property name. */
const documentColumns = new WeakMap<object, Set<string>>();

/**
 * A column that holds a whole resource, an audit snapshot, a webhook body or an idempotent answer,
 * which docs/reference/hardening.md wants stored whole on every database: TEXT on SQLite (unbounded there),
 * MEDIUMTEXT on MySQL, whose TEXT stops at 64 KiB. TypeORM takes one type per column for every
 * driver and refuses `mediumtext` on SQLite, so the dialect's type is set by ServiceDataSource below,
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

/** The service's data source (the application's and the CLI's): its dialect, chosen once by its driver. */
export class ServiceDataSource extends DataSource {
  readonly dialect: DatabaseDialect;

  constructor(options: DataSourceOptions) {
    super(options);
    this.dialect = this.driver instanceof MysqlDriver ? new MysqlDialect(this) : new SqliteDialect(this);
  }

  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    for (const entity of this.entityMetadatas) {
      for (const column of entity.columns) {
        const target = column.target;
        if (typeof target === 'function' && documentColumns.get(target)?.has(column.propertyName)) {
          column.type = this.dialect.documentType;
        }
      }
    }
  }
}

/** The dialect of the service's data source (provided as DatabaseDialect by DatabaseModule). */
export function dialectOf(dataSource: DataSource): DatabaseDialect {
  if (!(dataSource instanceof ServiceDataSource)) throw new Error('not the service data source');
  return dataSource.dialect;
}
