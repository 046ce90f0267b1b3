import type { PipeTransform } from '@nestjs/common';
import { ValidationError } from '../errors/domain-errors';

/** Anything but `true`, `false` or absent (`1`, empty, given twice) is a 400 rather than a silent false. */
export class ParseFlagPipe implements PipeTransform<unknown, boolean> {
  constructor(private readonly name: string) {}

  transform(value: unknown): boolean {
    if (value === undefined || value === 'false') return false;
    if (value === 'true') return true;
    throw new ValidationError(`${this.name} must be true or false`);
  }
}
