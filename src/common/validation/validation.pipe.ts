import {
  createParamDecorator,
  Inject,
  Injectable,
  type ArgumentMetadata,
  type ExecutionContext,
  type PipeTransform,
  type Type,
  type ValidationError as ClassValidatorError,
} from '@nestjs/common';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidatorOptions } from 'class-validator';
import type { Request } from 'express';
import { ValidationError } from '../errors/domain-errors';

/**
 * A body checked against its DTO class without throwing: `value` is the transformed instance
 * (a field in `failed` may hold anything) and `problems` the message lines, so that a route's
 * further checks can add theirs to one 400 (docs/reference/envelope-and-errors.md).
 */
export interface DtoCheck<T> {
  readonly value: T;
  readonly problems: readonly string[];
  /** The full path of every field that failed a rule, and of its parents (`custom_rpc_urls[0].url`). */
  readonly failed: ReadonlySet<string>;
}

const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  stopAtFirstError: true,
  validationError: { target: false, value: false },
};

/** The path of a nested field: `custom_rpc_urls[0].weight`, `policies.min_balance`. */
function childPath(parent: string, property: string): string {
  if (parent === '') return property;
  return /^\d+$/.test(property) ? `${parent}[${property}]` : `${parent}.${property}`;
}

/** One line per failed rule, each naming the field by its full path (collected into `failed`). */
function describeValidationErrors(
  errors: readonly ClassValidatorError[],
  failed: Set<string>,
  parent = '',
): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    const path = childPath(parent, error.property);
    failed.add(path);
    for (const [rule, text] of Object.entries(error.constraints ?? {})) {
      lines.push(
        rule === 'whitelistValidation'
          ? `${path} is not an allowed field`
          : withPath(text, error.property, path),
      );
    }
    if (error.children?.length) lines.push(...describeValidationErrors(error.children, failed, path));
  }
  return lines;
}

/** class-validator messages start with the property name; give them the full path instead. */
function withPath(text: string, property: string, path: string): string {
  if (path === property) return text;
  return text.startsWith(`${property} `) ? `${path}${text.slice(property.length)}` : `${path}: ${text}`;
}

/**
 * Keys no body field is named, that object copying treats specially: JSON.parse keeps
 * `"__proto__"` as an own property, but copying it (as class-transformer does) changes the
 * prototype instead, so the key would vanish or swap the DTO's class; an own `constructor` makes
 * class-transformer and class-validator look for metadata on a string.
 */
const OBJECT_MACHINERY_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A copy of the body without such keys, each named as the unknown field it is. */
function withoutPrototypeKeys(value: unknown, path: string, problems: string[]): unknown {
  if (Array.isArray(value))
    return value.map((item, i) => withoutPrototypeKeys(item, childPath(path, String(i)), problems));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (OBJECT_MACHINERY_KEYS.has(key)) problems.push(`${childPath(path, key)} is not an allowed field`);
    else copy[key] = withoutPrototypeKeys(item, childPath(path, key), problems);
  }
  return copy;
}

/** Transforms and validates a plain object against `type`, collecting every problem. */
export function checkDto<T extends object>(type: ClassConstructor<T>, plain: unknown): DtoCheck<T> {
  const problems: string[] = [];
  const source = withoutPrototypeKeys(typeof plain === 'object' && plain !== null ? plain : {}, '', problems);
  const value = plainToInstance(type, source, { enableImplicitConversion: false });
  const errors = validateSync(value, VALIDATOR_OPTIONS);
  const failed = new Set<string>();
  problems.push(...describeValidationErrors(errors, failed));
  return { value, problems, failed };
}

const PLAIN_TYPES: ReadonlySet<unknown> = new Set([String, Boolean, Number, Array, Object]);

/**
 * The global pipe: bodies, queries and params typed by a DTO class are transformed and validated;
 * unknown fields are refused by name, values are not converted implicitly (`"false"` stays a
 * string and fails @IsBoolean), and every failure is listed in one 400.
 */
@Injectable()
export class DtoValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const type = metadata.metatype;
    if (type === undefined || PLAIN_TYPES.has(type) || metadata.type === 'custom') return value;
    const checked = checkDto(type as ClassConstructor<object>, value);
    if (checked.problems.length > 0) throw new ValidationError(checked.problems);
    return checked.value;
  }
}

/**
 * What a write route checks beyond its DTO's rules (policies, URL policy, catalogue, signers): an
 * injectable provider of the resource's module, run by `@ValidBody(Rules)` after the DTO.
 */
export interface BodyRules<T extends object, V> {
  readonly dto: ClassConstructor<T>;
  /**
   * Adds the problems of `body` to `problems` (which holds the DTO's already; a field in
   * `body.failed` is skipped) and returns the valid value, used only when there are none.
   */
  check(body: DtoCheck<T>, problems: string[], params: Readonly<Record<string, unknown>>): V | Promise<V>;
}

/** The validation stage of a write: the DTO, then `rules`; every problem in one ValidationError. */
export async function validateBody<T extends object, V>(
  rules: BodyRules<T, V>,
  body: unknown,
  params: Readonly<Record<string, unknown>> = {},
): Promise<V> {
  const checked = checkDto(rules.dto, body);
  const problems = [...checked.problems];
  const value = await rules.check(checked, problems, params);
  if (problems.length > 0) throw new ValidationError(problems);
  return value;
}

interface RawBody {
  readonly body: unknown;
  readonly params: Readonly<Record<string, unknown>>;
}

const RawBody = createParamDecorator((_: unknown, ctx: ExecutionContext): RawBody => {
  const request = ctx.switchToHttp().getRequest<Request>();
  return { body: request.body as unknown, params: request.params };
});

/**
 * The body of a write route, validated in one stage (docs/architecture.md): the DTO, then `rules`;
 * every problem in one 400. The parameter receives what `rules.check` returns, valid except for
 * the rules that need the database under a lock.
 */
export function ValidBody<T extends object, V>(rules: Type<BodyRules<T, V>>): ParameterDecorator {
  @Injectable()
  class RulesPipe implements PipeTransform<RawBody, Promise<V>> {
    constructor(@Inject(rules) private readonly rules: BodyRules<T, V>) {}

    transform({ body, params }: RawBody): Promise<V> {
      return validateBody(this.rules, body, params);
    }
  }
  return RawBody(RulesPipe);
}
