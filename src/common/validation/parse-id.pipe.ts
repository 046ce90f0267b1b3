import type { PipeTransform } from '@nestjs/common';
import type { DomainError } from '../errors/domain-errors';
import { RESOURCE_ID_PATTERN } from './field-rules';

/**
 * A path id that cannot be an id at all (docs/reference/relayers.md#1-create: 1..36 letters, digits, '-', '_') names
 * nothing: answered with the resource's 404 at once, without a query.
 */
export class ParseIdPipe implements PipeTransform<string, string> {
  constructor(private readonly notFound: (id: string) => DomainError) {}

  transform(value: string): string {
    if (!RESOURCE_ID_PATTERN.test(value)) throw this.notFound(value);
    return value;
  }
}
