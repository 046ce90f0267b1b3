import type { ObjectLiteral, ValueTransformer } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { parseJson, stringifyJson } from '../common/http/json';

/**
 * A JSON value kept in a text column, (de)serialised by the entity: integers beyond 2^53 keep
 * every digit both ways (bigint in memory, digits in the column).
 */
export const jsonColumn: ValueTransformer = {
  to: (value: unknown): string | null =>
    value === null || value === undefined ? null : stringifyJson(value),
  from: (text: unknown): unknown => (typeof text === 'string' ? parseJson(text) : null),
};

/**
 * An entity (or part of one) as insert/update values. TypeORM's deep-partial type descends into
 * JSON columns as if they were relations and refuses free-form objects; the transformer above is
 * what writes them.
 */
export function asColumnValues<E extends ObjectLiteral>(values: Partial<E>): QueryDeepPartialEntity<E> {
  return values;
}
