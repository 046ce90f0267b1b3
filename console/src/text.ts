// Text as the console fits it on a screen. No import: test/console/units.spec.ts runs it in Node.

/**
 * A long identifier cut in its middle for a narrow screen: its first `head` and last `tail`
 * characters around `…` (`0x7E5F…5Bdf`); one short enough is answered whole.
 */
export function shortenMiddle(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}
