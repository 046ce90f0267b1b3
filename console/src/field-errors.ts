// An API 400 given to the form fields it names. No import: test/console/units.spec.ts runs it in Node.

/**
 * A 400's problems, each under the field of the form it names; `rest` holds those that name none of
 * them, in the API's words (null when there are none).
 */
export interface FieldProblems {
  fields: Record<string, string>;
  rest: string | null;
}

/**
 * The API's sentences that name a field by what it points at rather than by its path
 * (docs/api.md#relayers): `Network 'x' not found for network type 'evm'`, `Signer with ID x not found`.
 */
const SENTENCES: ReadonlyArray<readonly [string, string]> = [
  ['Network ', 'network'],
  ['Signer with ID ', 'signer_id'],
  ['Notification with ID ', 'notification_id'],
];

/** True when the problem is about `field`: it starts with its path, whole (`policies.x` is about `policies`). */
function names(problem: string, field: string): boolean {
  if (!problem.startsWith(field)) return false;
  const next = problem.charAt(field.length);
  return next === '' || next === ' ' || next === '.' || next === '[';
}

/**
 * Splits the message of a 400 (every problem in one message, separated by `; `:
 * docs/reference/envelope-and-errors.md#22-every-problem-in-one-answer) over the form's fields, named by
 * their API paths (`name`, `policies.min_balance`, `custom_rpc_urls[1]`): each problem goes to the
 * longest path it starts with; two problems of one field are joined as the API joined them.
 */
export function problemsByField(message: string, fields: readonly string[]): FieldProblems {
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  for (const problem of message.split('; ')) {
    const sentence = SENTENCES.find(([start, field]) => problem.startsWith(start) && fields.includes(field));
    const field =
      sentence?.[1] ?? fields.filter((f) => names(problem, f)).sort((a, b) => b.length - a.length)[0] ?? null;
    if (field === null) rest.push(problem);
    else byField[field] = byField[field] === undefined ? problem : `${byField[field]}; ${problem}`;
  }
  return { fields: byField, rest: rest.length > 0 ? rest.join('; ') : null };
}
