import { Column, type ColumnOptions } from 'typeorm';

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

/** Whether `property` of the entity class `target` is a DocumentColumn (read by ServiceDataSource). */
export function isDocumentColumn(target: object, property: string): boolean {
  return documentColumns.get(target)?.has(property) ?? false;
}
