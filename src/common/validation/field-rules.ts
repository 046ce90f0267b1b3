import { applyDecorators } from '@nestjs/common';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

export const RESOURCE_ID_PATTERN = /^[A-Za-z0-9_-]{1,36}$/;
export const RESOURCE_ID_RULE = "must be 1 to 36 characters of letters, digits, '-' or '_'";

/** `id` of a relayer or notification (contract 6.1): 1..36 of letters, digits, '-' and '_'. */
export const IsResourceId = (): PropertyDecorator =>
  applyDecorators(
    IsString({ message: `$property ${RESOURCE_ID_RULE}` }),
    Matches(RESOURCE_ID_PATTERN, { message: `$property ${RESOURCE_ID_RULE}` }),
  );

export const MAX_URL_LENGTH = 2048;

/** A URL field: a non-empty string of at most 2048 characters; the URL policy checks the rest. */
export const IsUrlText = (): PropertyDecorator =>
  applyDecorators(
    IsString({ message: '$property must be a string holding an http or https URL' }),
    IsNotEmpty({ message: '$property must not be empty' }),
    MaxLength(MAX_URL_LENGTH, { message: `$property must be at most ${MAX_URL_LENGTH} characters` }),
  );
