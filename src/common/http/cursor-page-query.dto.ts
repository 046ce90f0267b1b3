import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';
import { MAX_PER_PAGE, PageQueryDto } from './page.dto';

/** Where a newest-first list stopped: the time and id of the last item answered (docs/reference/pagination.md#17-cursors). */
export interface CursorPosition {
  readonly at: Date;
  readonly id: string;
}

/** What a `cursor` or `limit` sent with `page` or `per_page` becomes: those it was sent with. */
interface Mixed {
  readonly mixedWith: readonly string[];
}
const NOT_A_CURSOR = 'not a cursor';
type CursorValue = CursorPosition | Mixed | typeof NOT_A_CURSOR;

const isMixed = (value: unknown): value is Mixed =>
  typeof value === 'object' && value !== null && 'mixedWith' in value;

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_CURSOR_LENGTH = 200;
const LIMIT_RULE = `limit must be a whole number from 1 to ${MAX_PER_PAGE}`;

/** Opaque to callers: base64url of `[time, id]`. */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.at.toISOString(), position.id])).toString('base64url');
}

/** The position a cursor holds, or null for anything `encodeCursor` does not write. */
export function decodeCursor(value: unknown): CursorPosition | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_CURSOR_LENGTH) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) return null;
  const [time, id] = parsed as unknown[];
  if (typeof time !== 'string' || typeof id !== 'string' || !ID.test(id)) return null;
  const at = new Date(time);
  if (Number.isNaN(at.getTime()) || at.toISOString() !== time) return null;
  const position = { at, id };
  // One spelling per position: base64url's lenient reading accepts others.
  return encodeCursor(position) === value ? position : null;
}

/** `page` or `per_page` as sent with the field, named in its 400; null when neither was. */
function mixed(obj: unknown): Mixed | null {
  const sent = obj as Record<string, unknown>;
  const names = ['page', 'per_page'].filter((name) => sent[name] !== undefined);
  return names.length > 0 ? { mixedWith: names } : null;
}

/**
 * `page` and `per_page`, or `cursor` and `limit` (docs/reference/pagination.md#17-cursors): a list read
 * by keyset, newest first. `cursor` or `limit` with `page` or `per_page` is a 400 naming both.
 */
export class CursorPageQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    type: String,
    description: 'pagination.next_cursor of the previous page; with limit, instead of page and per_page',
  })
  @IsOptional()
  @Transform(({ value, obj }) => mixed(obj) ?? decodeCursor(value) ?? NOT_A_CURSOR)
  @ValidateBy(
    {
      name: 'isCursor',
      validator: { validate: (value: unknown) => typeof value === 'object' && !isMixed(value) },
    },
    {
      message: ({ value }) =>
        isMixed(value)
          ? `cursor cannot be given with ${value.mixedWith.join(' or ')}`
          : 'cursor must be a pagination.next_cursor of this list',
    },
  )
  cursor?: CursorValue;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PER_PAGE,
    description: 'Items per page with cursor (default 10)',
  })
  @IsOptional()
  @Transform(
    ({ value, obj }: { value: unknown; obj: unknown }): unknown =>
      mixed(obj) ?? (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
  )
  @ValidateBy(
    {
      name: 'isLimit',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_PER_PAGE,
      },
    },
    {
      message: ({ value }) =>
        isMixed(value) ? `limit cannot be given with ${value.mixedWith.join(' or ')}` : LIMIT_RULE,
    },
  )
  limit?: number | Mixed;

  /** Read by keyset: `cursor` or `limit` was sent. */
  get byCursor(): boolean {
    return this.cursor !== undefined || this.limit !== undefined;
  }

  /** The items of a page by cursor. */
  get cursorLimit(): number {
    return typeof this.limit === 'number' ? this.limit : 10;
  }

  /** Where the previous page stopped; null for the first. */
  get position(): CursorPosition | null {
    return typeof this.cursor === 'object' && !isMixed(this.cursor) ? this.cursor : null;
  }
}

/**
 * A page by cursor of `rows` read with one more than the limit: the items, and the cursor of the
 * next page (null after the last).
 */
export function cursorPage<T>(
  rows: readonly T[],
  limit: number,
  positionOf: (row: T) => CursorPosition,
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items,
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(positionOf(last)) : null,
  };
}
