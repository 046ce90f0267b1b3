import { Column, DataSource, type ColumnOptions, type DataSourceOptions } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import type { DatabaseDialect } from './dialects/database-dialect';
import { MysqlDialect } from './dialects/mysql.dialect';
import { SqliteDialect } from './dialects/sqlite.dialect';

const documentColumns = new WeakMap<object, Set<string>>();

/**
 * A whole document, stored whole on every database (docs/reference/hardening.md): TEXT on SQLite, MEDIUMTEXT
 * on MySQL (its TEXT stops at 64 KiB). TypeORM refuses `mediumtext` on SQLite, so ServiceDataSource sets
 * the dialect's type, as the migrations do (1796000000000-WidenDocumentColumns).
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

/** The application's and the CLI's data source: its dialect is chosen once, by its driver. */
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

/** Also what migrations ask for their database's column types. */
export function dialectOf(dataSource: DataSource): DatabaseDialect {
  if (!(dataSource instanceof ServiceDataSource)) throw new Error('not the service data source');
  return dataSource.dialect;
}
