import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';

// RFC 3339 section 5.6 `date-time`: full-date "T" full-time, with a time offset, seconds required,
// fraction optional. T and Z may be lower case (section 5.6, note). Nothing else: ISO 8601's week
// (2030-W01), ordinal (2030-123), basic (20300101) and date-only forms are what Date.parse and the
// ISO 8601 validator read differently, or not at all, which made them 500s and ignored filters.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The one reader of every date the API reads (docs/reference/hardening.md "Dates"): the instant an RFC 3339 date
 * and time names, or null when the text is not one or names an impossible date (February 30th,
 * hour 25, offset +24:00). Fractions beyond milliseconds are cut, as a Date holds no more. A leap
 * second (`:60`) is refused: a Date cannot hold it.
 */
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

/**
 * A DTO field holding an RFC 3339 date and time: a valid text becomes the Date it names (the
 * service reads that, never the text again); anything else stays as sent and fails with `message`.
 * Absent and null are left to @IsOptional.
 */
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
