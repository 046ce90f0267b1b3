import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { SqliteDialect } from './dialects/sqlite-dialect';
import { EntityRepository } from './entity-rows';

@Entity('listed')
class ListedEntity {
  @PrimaryColumn('varchar') id: string;
  @Column('varchar') name: string;
}

@Entity('forgotten')
class ForgottenEntity {
  @PrimaryColumn('varchar') id: string;
}

describe('EntityRepository', () => {
  const source = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [ListedEntity] });
  const dialect = new SqliteDialect(source);
  beforeAll(() => source.initialize());
  afterAll(() => source.destroy());

  it('serves an entity of the data source', () => {
    const Rows = EntityRepository(ListedEntity);
    expect(new Rows(source.getRepository(ListedEntity), dialect).table).toBe('listed');
  });

  it('refuses, at start, an entity the data source does not list', () => {
    const Rows = EntityRepository(ForgottenEntity);
    expect(() => new Rows(source.getRepository(ForgottenEntity), dialect)).toThrow(
      'ForgottenEntity is not an entity of the data source: give it to TypeOrmModule.forFeature in its module (docs/architecture.md#adding-a-resource)',
    );
  });
});
