import type { PipeTransform } from '@nestjs/common';
import { ValidationError } from '../errors/domain-errors';

/**
 * A boolean query flag such as `dry_run`: `true` or `false`, absent is false; any other value
 * (`1`, `yes`, empty, given twice) is a 400 naming the flag rather than a silent false.
 */
export class ParseFlagPipe implements PipeTransform<unknown, boolean> {
  constructor(private readonly name: string) {}

  transform(value: unknown): boolean {
    if (value === undefined || value === 'false') return false;
    if (value === 'true') return true;
    throw new ValidationError(`${this.name} must be true or false`);
  }
}
