import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_PER_PAGE = 100;

/** Only plain digits count as a number (no '1e3', '0x10' or ' 5'). */
const toWholeNumber = (value: unknown): unknown =>
  typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;

export class PageQueryDto {
  @ApiProperty({ required: false, minimum: 1, default: 1 })
  @IsOptional()
  @Transform(({ value }) => toWholeNumber(value))
  @IsInt({ message: 'page must be a whole number of at least 1' })
  @Min(1, { message: 'page must be a whole number of at least 1' })
  page: number = 1;

  @ApiProperty({ required: false, minimum: 1, maximum: MAX_PER_PAGE, default: 10 })
  @IsOptional()
  @Transform(({ value }) => toWholeNumber(value))
  @IsInt({ message: `per_page must be a whole number from 1 to ${MAX_PER_PAGE}` })
  @Min(1, { message: `per_page must be a whole number from 1 to ${MAX_PER_PAGE}` })
  @Max(MAX_PER_PAGE, { message: `per_page must be a whole number from 1 to ${MAX_PER_PAGE}` })
  per_page: number = 10;

  get offset(): number {
    return (this.page - 1) * this.per_page;
  }
}

export class Page<T> {
  constructor(
    readonly items: T[],
    readonly query: PageQueryDto,
    readonly totalItems: number,
  ) {}
}
