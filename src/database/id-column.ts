import { Column, PrimaryColumn, type ColumnOptions } from 'typeorm';

/**
 * What an id column holds. `ascii`: ids the service checks before they reach a query (1 to 36 of
 * `A-Za-z0-9_-`, UUIDs) and that columns of other tables refer to. `text`: ids taken as they are
 * given, which may hold any character: a network's (its name comes from the configuration file) and
 * an audit record's resource and actor (an extension's resources, filters of any string).
 */
export type IdCharacters = 'ascii' | 'text';

export interface IdColumnOptions extends Pick<ColumnOptions, 'name' | 'nullable'> {
  /** In characters; 36 (a resource id, a UUID) unless given. */
  readonly length?: number;
  readonly characters?: IdCharacters;
}

const idColumns = new WeakMap<object, Map<string, IdCharacters>>();

function remember(target: object, property: string | symbol, characters: IdCharacters): void {
  const columns = idColumns.get(target.constructor) ?? new Map<string, IdCharacters>();
  columns.set(String(property), characters);
  idColumns.set(target.constructor, columns);
}

function columnOptions({ name, length = 36 }: IdColumnOptions): ColumnOptions & { nullable?: false } {
  return { name, type: 'varchar', length };
}

/**
 * An id, or a column referring to one, compared byte for byte on every database
 * (docs/reference/running.md#37-ids-compare-exactly): `TEAM-A-1` is never `team-a-1`.
 * SQLite compares bytes already; on MySQL, whose default collation ignores case, ServiceDataSource
 * gives the column the dialect's binary collation, as the migrations do (1797600000000-ExactIds).
 */
export function IdColumn(options: IdColumnOptions = {}): PropertyDecorator {
  return (target, property) => {
    remember(target, property, options.characters ?? 'ascii');
    Column({ ...columnOptions(options), nullable: options.nullable })(target, property);
  };
}

/** IdColumn, as (part of) the table's primary key. */
export function IdPrimaryColumn(options: Omit<IdColumnOptions, 'nullable'> = {}): PropertyDecorator {
  return (target, property) => {
    remember(target, property, options.characters ?? 'ascii');
    PrimaryColumn(columnOptions(options))(target, property);
  };
}

/** What `property` of the entity class `target` holds when it is an id column (read by ServiceDataSource). */
export function idCharactersOf(target: object, property: string): IdCharacters | undefined {
  return idColumns.get(target)?.get(property);
}
