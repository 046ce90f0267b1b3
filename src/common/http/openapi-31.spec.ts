import type { OpenAPIObject } from '@nestjs/swagger';
import { toOpenApi31 } from './openapi-31';

/** A document holding `schema` as a component, converted; answers the component. */
function converted(schema: Record<string, unknown>): unknown {
  const document = {
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: {},
    components: { schemas: { Subject: schema } },
  } as unknown as OpenAPIObject;
  const result = toOpenApi31(document);
  expect(result.openapi).toBe('3.1.0');
  return result.components?.schemas?.Subject;
}

describe('toOpenApi31: the 3.0 forms of a schema, in 3.1 form', () => {
  const ref = { $ref: '#/components/schemas/Other' };

  it.each([
    ['a nullable type', { type: 'string', nullable: true }, { type: ['string', 'null'] }],
    [
      'a nullable enum',
      { type: 'string', enum: ['a', 'b'], nullable: true },
      { type: ['string', 'null'], enum: ['a', 'b', null] },
    ],
    ['nullable false', { type: 'integer', nullable: false }, { type: 'integer' }],
    ['a nullable reference', { ...ref, nullable: true }, { anyOf: [ref, { type: 'null' }] }],
    [
      'a nullable allOf of one reference, typed object',
      { type: 'object', allOf: [ref], nullable: true, description: 'd' },
      { description: 'd', anyOf: [ref, { type: 'null' }] },
    ],
    [
      'a nullable oneOf',
      { oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true },
      { anyOf: [{ oneOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'null' }] },
    ],
    [
      'boolean exclusive bounds',
      { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false },
      { type: 'number', exclusiveMinimum: 0, maximum: 9 },
    ],
    [
      'nested schemas, not values: a property named nullable, an example holding nullable',
      {
        type: 'object',
        properties: { nullable: { type: 'boolean', nullable: true } },
        example: { nullable: true },
      },
      {
        type: 'object',
        properties: { nullable: { type: ['boolean', 'null'] } },
        example: { nullable: true },
      },
    ],
    ['a schema already in 3.1 form', { type: ['string', 'null'] }, { type: ['string', 'null'] }],
  ])('%s', (_name, schema, expected) => {
    expect(converted(schema)).toEqual(expected);
  });
});
