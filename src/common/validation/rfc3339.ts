import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';

// RFC 3339 5.6 `date-time` only (T and Z in either case): ISO 8601's week, ordinal, basic and date-only
// forms are read differently by Date.parse and the ISO 8601 validator, which made them 500s and ignored filters.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Every date the API reads (docs/reference/hardening.md); null for an impossible one, a leap second included. */
export function parseRfc3339(text: string): Date | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const fraction = match[7] ?? '';
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (match[8] === undefined) {
    const [offsetHour, offsetMinute] = [Number(match[10]), Number(match[11])];
    if (offsetHour > 23 || offsetMinute > 59) return null;
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute);
  }
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  // Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear does not.
  const utc = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  utc.setUTCFullYear(year);
  return new Date(utc.getTime() - offsetMinutes * 60_000);
}

/** A valid text becomes the Date it names, which the service reads instead; anything else fails with `message`. */
export const IsRfc3339DateTime = (message: string): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? (parseRfc3339(value) ?? value) : value,
    ),
    ValidateBy(
      { name: 'isRfc3339DateTime', validator: { validate: (value) => value instanceof Date } },
      { message },
    ),
  );
