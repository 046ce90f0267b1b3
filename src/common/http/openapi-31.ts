import type { OpenAPIObject } from '@nestjs/swagger';

/** The version of OpenAPI the document at /api/docs-json follows (docs/api.md). */
export const OPENAPI_VERSION = '3.1.0';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const NULL_SCHEMA = { type: 'null' };
const COMBINATORS = ['allOf', 'oneOf', 'anyOf'] as const;
/** Values, not schemas: left as they are. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'const', 'enum']);

/** `nullable: true` on a reference or a composed schema: that schema, or null (SwaggerModule's form). */
function nullableComposed(schema: Json): void {
  const inner: Json = {};
  if (typeof schema.$ref === 'string') {
    inner.$ref = schema.$ref;
    delete schema.$ref;
  }
  const combinator = COMBINATORS.find((key) => Array.isArray(schema[key]));
  if (combinator) {
    const members = schema[combinator] as unknown[];
    delete schema[combinator];
    if (schema.type === 'object' && !('properties' in schema)) delete schema.type;
    if (!inner.$ref && combinator === 'allOf' && members.length === 1 && isObject(members[0])) {
      Object.assign(inner, members[0]);
    } else inner[combinator] = members;
  }
  schema.anyOf = [inner, NULL_SCHEMA];
}

/**
 * One schema in 3.0 form, in 3.1 form (JSON Schema 2020-12): `nullable: true` becomes `null` among the
 * types (and the enum), or `anyOf [schema, {type: 'null'}]` for a reference or a composed schema, as
 * SwaggerModule writes them; `nullable: false` goes; boolean `exclusiveMinimum`/`exclusiveMaximum`
 * become the bound itself.
 */
function convertSchema(schema: Json): void {
  for (const bound of ['Minimum', 'Maximum'] as const) {
    const key = `exclusive${bound}`;
    const exclusive = schema[key];
    if (typeof exclusive !== 'boolean') continue;
    const limit = bound === 'Minimum' ? 'minimum' : 'maximum';
    if (exclusive && typeof schema[limit] === 'number') {
      schema[key] = schema[limit];
      delete schema[limit];
    } else delete schema[key];
  }
  if (typeof schema.nullable !== 'boolean') return;
  const nullable = schema.nullable;
  delete schema.nullable;
  if (!nullable) return;
  if (typeof schema.$ref === 'string' || COMBINATORS.some((key) => Array.isArray(schema[key]))) {
    nullableComposed(schema);
    return;
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
    if (!types.includes('null')) schema.type = [...types, 'null'];
  }
  const values: unknown = schema.enum;
  if (Array.isArray(values) && !values.includes(null)) schema.enum = [...(values as unknown[]), null];
}

function walk(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    if (!DATA_KEYS.has(key) && !key.startsWith('x-')) walk(child);
  }
  convertSchema(value);
}

/**
 * The finished document as OpenAPI 3.1, the one place where it is made so. SwaggerModule, asked for
 * 3.1 (`setOpenAPIVersion`), converts the `nullable` of what it scanned; what is added to its document
 * afterwards (the liveness route, idempotency keys, grants, audit types, webhooks) and what it leaves
 * in 3.0 form (boolean exclusive bounds) is converted here, last, in the same form.
 */
export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  walk(document.paths);
  walk(document.webhooks);
  walk(document.components);
  document.openapi = OPENAPI_VERSION;
  return document;
}
