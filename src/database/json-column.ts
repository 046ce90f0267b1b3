import type { ObjectLiteral, ValueTransformer } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { parseJson, stringifyJson } from '../common/http/json';

/** A JSON value in a text column: integers beyond 2^53 keep every digit both ways (bigint in memory). */
export const jsonColumn: ValueTransformer = {
  to: (value: unknown): string | null =>
    value === null || value === undefined ? null : stringifyJson(value),
  from: (text: unknown): unknown => (typeof text === 'string' ? parseJson(text) : null),
};

/** As update values: TypeORM's type takes JSON columns for relations and refuses free-form objects there. */
export function asColumnValues<E extends ObjectLiteral>(values: Partial<E>): QueryDeepPartialEntity<E> {
  return values;
}
