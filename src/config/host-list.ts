/** Splits a comma-separated list of hosts from an environment variable (lower case, blanks dropped). */
export function parseHostList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
}
