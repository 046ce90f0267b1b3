import {
  createParamDecorator,
  Inject,
  Injectable,
  type ArgumentMetadata,
  type ExecutionContext,
  type PipeTransform,
  type Type,
} from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import type { Request } from 'express';
import { ValidationError } from '../errors/domain-errors';
import { checkDto, type DtoCheck } from './validate-dto';

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

interface RawBody {
  readonly body: unknown;
  readonly params: Readonly<Record<string, unknown>>;
}

const RawBody = createParamDecorator((_: unknown, ctx: ExecutionContext): RawBody => {
  const request = ctx.switchToHttp().getRequest<Request>();
  return { body: request.body as unknown, params: request.params };
});

const pipes = new Map<Type<BodyRules<object, unknown>>, Type<PipeTransform>>();

/** The one pipe of a rules class: the DTO, then the rules; every problem in one 400. */
function bodyPipe(rules: Type<BodyRules<object, unknown>>): Type<PipeTransform> {
  let pipe = pipes.get(rules);
  if (pipe === undefined) {
    @Injectable()
    class RulesPipe implements PipeTransform<RawBody, Promise<unknown>> {
      constructor(@Inject(rules) private readonly rules: BodyRules<object, unknown>) {}

      async transform({ body, params }: RawBody): Promise<unknown> {
        const checked = checkDto(this.rules.dto, body);
        const problems = [...checked.problems];
        const value = await this.rules.check(checked, problems, params);
        if (problems.length > 0) throw new ValidationError(problems);
        return value;
      }
    }
    pipe = RulesPipe;
    pipes.set(rules, pipe);
  }
  return pipe;
}

/**
 * The body of a write route, validated in one stage (docs/architecture.md): the parameter receives
 * what `rules.check` returns, valid except for the rules that need the database under a lock.
 */
export const ValidBody = <T extends object, V>(rules: Type<BodyRules<T, V>>): ParameterDecorator =>
  RawBody(bodyPipe(rules as Type<BodyRules<object, unknown>>));
