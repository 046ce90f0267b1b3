import { DataSource, type DataSourceOptions } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import type { DatabaseDialect } from './dialects/database-dialect';
import { MysqlDialect } from './dialects/mysql-dialect';
import { SqliteDialect } from './dialects/sqlite-dialect';
import { isDocumentColumn } from './document-column';
import { idCharactersOf } from './id-column';

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
        if (typeof target !== 'function') continue;
        if (isDocumentColumn(target, column.propertyName)) column.type = this.dialect.documentType;
        const characters = idCharactersOf(target, column.propertyName);
        if (characters !== undefined) {
          const exact = characters === 'ascii' ? this.dialect.exactAscii : this.dialect.exactText;
          column.charset = exact.charset;
          column.collation = exact.collation;
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
