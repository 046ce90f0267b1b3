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
import { PROBLEM_SEPARATOR } from './field-rules';

/** Not thrown, so that a route's further checks add theirs to one 400; a field in `failed` may hold anything. */
export interface DtoCheck<T> {
  readonly value: T;
  readonly problems: readonly string[];
  /** Failed fields and their parents, by full path (`custom_rpc_urls[0].url`). */
  readonly failed: ReadonlySet<string>;
}

const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  stopAtFirstError: true,
  validationError: { target: false, value: false },
};

function childPath(parent: string, property: string): string {
  if (parent === '') return property;
  return /^\d+$/.test(property) ? `${parent}[${property}]` : `${parent}.${property}`;
}

function describeValidationErrors(errors: readonly ClassValidatorError[], failed: Set<string>, parent = '') {
  const lines: string[] = [];
  for (const error of errors) {
    const path = childPath(parent, error.property);
    failed.add(path);
    for (const [rule, text] of Object.entries(error.constraints ?? {})) {
      if (rule === 'whitelistValidation') lines.push(`${path} is not an allowed field`);
      else lines.push(...text.split(PROBLEM_SEPARATOR).map((line) => withPath(line, error.property, path)));
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
 * JSON.parse keeps `"__proto__"` as an own key, but copying it (as class-transformer does) sets the
 * prototype instead; an own `constructor` sends class-transformer and class-validator to a string's metadata.
 */
const OBJECT_MACHINERY_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A copy of `value` without those keys, and a problem for each key left out. */
function withoutPrototypeKeys(value: unknown, path: string): Checked<unknown> {
  if (Array.isArray(value)) {
    const items = value.map((item, i) => withoutPrototypeKeys(item, childPath(path, String(i))));
    return { value: items.map((item) => item.value), problems: items.flatMap((item) => item.problems) };
  }
  if (typeof value !== 'object' || value === null) return { value, problems: [] };
  const copy: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (OBJECT_MACHINERY_KEYS.has(key)) {
      problems.push(`${childPath(path, key)} is not an allowed field`);
      continue;
    }
    const checked = withoutPrototypeKeys(item, childPath(path, key));
    copy[key] = checked.value;
    problems.push(...checked.problems);
  }
  return { value: copy, problems };
}

export function checkDto<T extends object>(type: ClassConstructor<T>, plain: unknown): DtoCheck<T> {
  const source = withoutPrototypeKeys(typeof plain === 'object' && plain !== null ? plain : {}, '');
  const value = plainToInstance(type, source.value, { enableImplicitConversion: false });
  const errors = validateSync(value, VALIDATOR_OPTIONS);
  const failed = new Set<string>();
  return { value, problems: [...source.problems, ...describeValidationErrors(errors, failed)], failed };
}

const PLAIN_TYPES: ReadonlySet<unknown> = new Set([String, Boolean, Number, Array, Object]);

/** Values are not converted implicitly: `"false"` stays a string and fails @IsBoolean. */
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

/** What a check found: the value is usable only without problems. */
export interface Checked<V> {
  readonly value: V;
  readonly problems: readonly string[];
}

/** What a write route checks beyond its DTO (policies, URL policy, catalogue, signers), as a provider. */
export interface BodyRules<T extends object, V> {
  readonly dto: ClassConstructor<T>;
  /**
   * The problems beyond the DTO's (`body.problems`; skip the fields in `body.failed`), for every body:
   * every rule that needs no lock (docs/architecture.md#a-requests-path). The value is used only when
   * neither has any.
   */
  check(body: DtoCheck<T>, params: Readonly<Record<string, unknown>>): Checked<V> | Promise<Checked<V>>;
}

export async function validateBody<T extends object, V>(
  rules: BodyRules<T, V>,
  body: unknown,
  params: Readonly<Record<string, unknown>> = {},
): Promise<V> {
  const { value, problems } = await bodyProblems(rules, body, params);
  if (problems.length > 0) throw new ValidationError(problems);
  return value;
}

/** Every problem of a body by its rules (`config check` names them all); the value is usable only without any. */
export async function bodyProblems<T extends object, V>(
  rules: BodyRules<T, V>,
  body: unknown,
  params: Readonly<Record<string, unknown>> = {},
): Promise<Checked<V>> {
  const checked = checkDto(rules.dto, body);
  const { value, problems } = await rules.check(checked, params);
  return { value, problems: [...checked.problems, ...problems] };
}

interface RawBody {
  readonly body: unknown;
  readonly params: Readonly<Record<string, unknown>>;
}

const RawBody = createParamDecorator((_: unknown, ctx: ExecutionContext): RawBody => {
  const request = ctx.switchToHttp().getRequest<Request>();
  return { body: request.body as unknown, params: request.params };
});

/** docs/architecture.md: the parameter is valid except for the rules that need the database under a lock. */
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
