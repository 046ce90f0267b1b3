// Providers count a text's length in UTF-16 code units at most (Slack, PagerDuty): a text clipped
// here fits whichever way they count, and never ends in half a surrogate pair or half an entity.

const ELLIPSIS = '…';

/** User input on one line: line breaks, tabs and other control characters become one space. */
export function oneLine(text: string): string {
  return text.replace(/[\s\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim();
}

/**
 * `raw`, escaped by `escape`, in at most `max` code units: when it does not fit, as many whole
 * characters as fit with an ellipsis after them, each escaped whole (`&` is never cut to `&am`).
 */
export function clip(raw: string, max: number, escape: (text: string) => string = (text) => text): string {
  const whole = escape(raw);
  if (whole.length <= max) return whole;
  let out = '';
  for (const character of raw) {
    const piece = escape(character);
    if (out.length + piece.length + ELLIPSIS.length > max) break;
    out += piece;
  }
  return `${out}${ELLIPSIS}`;
}
