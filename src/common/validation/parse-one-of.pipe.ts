import type { PipeTransform } from '@nestjs/common';
import { ValidationError } from '../errors/domain-errors';

/**
 * One optional query parameter of a route that is not a list, one of a few values: absent is
 * undefined, anything else (another value, empty, given twice) a 400 naming the values. The route's
 * other parameters stay ignored, as on every route that is not a list.
 */
export class ParseOneOfPipe<T extends string> implements PipeTransform<unknown, T | undefined> {
  constructor(
    private readonly name: string,
    private readonly values: readonly T[],
  ) {}

  transform(value: unknown): T | undefined {
    if (value === undefined) return undefined;
    const known = this.values.find((v) => v === value);
    if (known === undefined)
      throw new ValidationError(`${this.name} must be one of: ${this.values.join(', ')}`);
    return known;
  }
}
