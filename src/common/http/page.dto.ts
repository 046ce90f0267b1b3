import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_PER_PAGE = 100;
/** The last page a list can be asked for (docs/reference/pagination.md#11-parameters). */
export const MAX_PAGE = 999_999_999;

/** Only plain digits count as a number (no '1e3', '0x10' or ' 5'); too many digits make Infinity. */
const toWholeNumber = (value: unknown): unknown =>
  typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;

const PAGE_RULE = 'page must be a whole number of at least 1';
const PAGE_BOUND_RULE = `page must be a whole number from 1 to ${MAX_PAGE}`;

export class PageQueryDto {
  @ApiProperty({ required: false, minimum: 1, maximum: MAX_PAGE, default: 1 })
  @IsOptional()
  @Transform(({ value }) => toWholeNumber(value))
  // Checked from the last up, the first failure told: the bound only for a whole number past it
  // (digits too many for a number are Infinity).
  @Max(MAX_PAGE, { message: PAGE_BOUND_RULE })
  @IsInt({ message: ({ value }) => (value === Infinity ? PAGE_BOUND_RULE : PAGE_RULE) })
  @Min(1, { message: PAGE_RULE })
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

/**
 * A page of a list: by number (`totalItems` counted), or by cursor (`cursor` set, nothing counted:
 * docs/reference/pagination.md#17-cursors).
 */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly query: PageQueryDto,
    readonly totalItems: number | null,
    readonly cursor?: { readonly limit: number; readonly next: string | null },
  ) {}
}
