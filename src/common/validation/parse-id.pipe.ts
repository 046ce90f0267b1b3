import type { PipeTransform } from '@nestjs/common';
import type { DomainError } from '../errors/domain-errors';
import { RESOURCE_ID_PATTERN } from './field-rules';

/** A path id that cannot be an id (docs/reference/relayers.md#1-create) is a 404 without a query. */
export class ParseIdPipe implements PipeTransform<string, string> {
  constructor(private readonly notFound: (id: string) => DomainError) {}

  transform(value: string): string {
    if (!RESOURCE_ID_PATTERN.test(value)) throw this.notFound(value);
    return value;
  }
}
