import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { ValidationError } from '../errors/domain-errors';
import { checkDto, type Checked } from './validate-dto';

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
 * For a body whose service adds checks of its own (policies, URL policy, the catalogue): the DTO's
 * problems are handed to the service with the value instead of thrown, so that one 400 names them
 * all. Declare the parameter as `Checked<Dto>` (an interface), which the global pipe passes through.
 */
export class CheckedBodyPipe<T extends object> implements PipeTransform<unknown, Checked<T>> {
  constructor(private readonly type: ClassConstructor<T>) {}

  transform(value: unknown): Checked<T> {
    return checkDto(this.type, value);
  }
}
