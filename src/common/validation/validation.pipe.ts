import { ValidationPipe, type ValidationError as ClassValidatorError } from '@nestjs/common';
import { ValidationError } from '../errors/domain-errors';

/** One line per failed rule, each naming the field by its full path (e.g. policies.min_balance). */
export function describeValidationErrors(errors: ClassValidatorError[], parent = ''): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    for (const [rule, text] of Object.entries(error.constraints ?? {})) {
      lines.push(
        rule === 'whitelistValidation'
          ? `${path} is not an allowed field`
          : withPath(text, error.property, path),
      );
    }
    if (error.children?.length) lines.push(...describeValidationErrors(error.children, path));
  }
  return lines;
}

/** class-validator messages start with the property name; give them the full path instead. */
function withPath(text: string, property: string, path: string): string {
  if (path === property) return text;
  return text.startsWith(`${property} `) ? `${path}${text.slice(property.length)}` : `${path}: ${text}`;
}

/** Sorted and de-duplicated, so that the same bad body always gets the same message. */
export function validationMessage(lines: string[]): string {
  return [...new Set(lines)].sort().join('; ');
}

/**
 * The global pipe: unknown fields are refused by name, values are not converted implicitly
 * (`"false"` stays a string and fails @IsBoolean), and every failure is listed in one 400.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationError(validationMessage(describeValidationErrors(errors))),
  });
}
