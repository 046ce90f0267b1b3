import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';

export const RESOURCE_ID_PATTERN = /^[A-Za-z0-9_-]{1,36}$/;
export const RESOURCE_ID_RULE = "must be 1 to 36 characters of letters, digits, '-' or '_'";

export const IsResourceId = (): PropertyDecorator =>
  applyDecorators(
    IsString({ message: `$property ${RESOURCE_ID_RULE}` }),
    Matches(RESOURCE_ID_PATTERN, { message: `$property ${RESOURCE_ID_RULE}` }),
  );

export const IsOptionalNewId = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      description: 'Absent or null: a UUID v4 is generated',
      pattern: RESOURCE_ID_PATTERN.source,
      nullable: true,
    }),
    IsOptional(),
    IsResourceId(),
  );

/** A message may name several problems, one per line: the DTO pipe makes each a problem of its own. */
export const PROBLEM_SEPARATOR = '\n';

interface ListRule {
  /** 1 unless told: 0 lets an empty list through. */
  readonly min?: number;
  readonly max?: number;
  /** Names the field when it is no array of `min` to `max` items. */
  readonly rule: string;
  /** The problem of one item (`at` is `field[i]`), or null. */
  readonly item: (value: unknown, at: string, list: readonly unknown[]) => string | null;
}

/** A list of `min` (1) to `max` items: the list named when it is none, else each item refused. */
export const IsListOf = ({ min = 1, max = Infinity, rule, item }: ListRule): PropertyDecorator => {
  const isList = (value: unknown): value is unknown[] =>
    Array.isArray(value) && value.length >= min && value.length <= max;
  const problems = (list: readonly unknown[], property: string): string[] =>
    list.flatMap((value, i) => item(value, `${property}[${i}]`, list) ?? []);
  return ValidateBy(
    {
      name: 'isListOf',
      validator: {
        validate: (value: unknown, args) => isList(value) && !problems(value, args!.property).length,
      },
    },
    {
      message: ({ value, property }) =>
        isList(value) ? problems(value, property).join(PROBLEM_SEPARATOR) : rule,
    },
  );
};

export const MAX_NAME_LENGTH = 255;
const NAME_RULE = `name must be 1 to ${MAX_NAME_LENGTH} characters, not only whitespace`;

/** A relayer's or a key's name. */
export const IsName = (): PropertyDecorator =>
  applyDecorators(
    IsString({ message: NAME_RULE }),
    MaxLength(MAX_NAME_LENGTH, { message: NAME_RULE }),
    Matches(/\S/, { message: NAME_RULE }),
  );

/** How long a replaced secret keeps working after a rotation (an API key's, a webhook's signing key): a week. */
export const MAX_OVERLAP_SECONDS = 604_800;
const OVERLAP_RULE = `overlap_seconds must be a whole number from 0 to ${MAX_OVERLAP_SECONDS}`;

/** Required unless IsOptional() comes first. */
export const IsOverlapSeconds = (): PropertyDecorator =>
  applyDecorators(
    IsInt({ message: OVERLAP_RULE }),
    Min(0, { message: OVERLAP_RULE }),
    Max(MAX_OVERLAP_SECONDS, { message: OVERLAP_RULE }),
  );

export const MAX_URL_LENGTH = 2048;

/** The URL policy checks the rest. */
export const IsUrlText = (): PropertyDecorator =>
  applyDecorators(
    IsString({ message: '$property must be a string holding an http or https URL' }),
    IsNotEmpty({ message: '$property must not be empty' }),
    MaxLength(MAX_URL_LENGTH, { message: `$property must be at most ${MAX_URL_LENGTH} characters` }),
  );

export const RPC_WEIGHT = { min: 0, max: 100, default: 100 } as const;
export const RPC_WEIGHT_RULE = `must be a whole number from ${RPC_WEIGHT.min} to ${RPC_WEIGHT.max}`;

export const IsOptionalRpcWeight = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: Number,
      minimum: RPC_WEIGHT.min,
      maximum: RPC_WEIGHT.max,
      default: RPC_WEIGHT.default,
    }),
    IsOptional(),
    IsInt({ message: `$property ${RPC_WEIGHT_RULE}` }),
    Min(RPC_WEIGHT.min, { message: `$property ${RPC_WEIGHT_RULE}` }),
    Max(RPC_WEIGHT.max, { message: `$property ${RPC_WEIGHT_RULE}` }),
  );

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
