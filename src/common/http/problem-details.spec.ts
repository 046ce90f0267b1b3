import { fieldOfProblem, ValidationError } from '../errors/domain-errors';
import { acceptsProblemDetails, errorAnswer } from './problem-details';

describe('Accept selects problem details (docs/reference/envelope-and-errors.md#41-asking-for-them)', () => {
  it.each([
    ['the type alone', 'application/problem+json', true],
    ['in any case', 'Application/Problem+JSON', true],
    ['first in a list', 'application/problem+json, application/json', true],
    ['last in a list', 'application/json,application/problem+json', true],
    ['with a quality above 0', 'application/json;q=1, application/problem+json;q=0.1', true],
    ['with spaces around its parameters', 'application/problem+json ; charset=utf-8 ; q = 0.5', true],
    ['in one of several header lines', ['application/json', 'application/problem+json'], true],
    ['with quality 0', 'application/problem+json;q=0, application/json', false],
    ['with quality 0.000', 'application/problem+json;q=0.000', false],
    ['with an unreadable quality', 'application/problem+json;q=high', false],
    ['with a quality above 1', 'application/problem+json;q=2', false],
    ['*/* alone', '*/*', false],
    ['application/* alone', 'application/*', false],
    ['application/json alone', 'application/json', false],
    ['another +json type', 'application/merge-patch+json', false],
    ['a longer type that contains it', 'application/problem+json-seq', false],
    ['an empty header', '', false],
    ['no header', undefined, false],
  ])('%s (%j) → %s', (_, accept, expected) => {
    expect(acceptsProblemDetails(accept)).toBe(expected);
  });
});

describe('the field a problem names (docs/reference/envelope-and-errors.md#43-the-problems-of-a-400)', () => {
  it.each([
    ['name must be a string', 'name'],
    ['custom_rpc_urls[0].weight must be an integer from 0 to 100', 'custom_rpc_urls[0].weight'],
    ['policies.allowed_tokens[0].mint must be a Solana address', 'policies.allowed_tokens[0].mint'],
    ['__proto__ is not an allowed field', '__proto__'],
    ['rpc_urls[1]: the URL is refused', 'rpc_urls[1]'],
    ['Signer with ID s-1 not found', null],
    ['not a secp256k1 or an ed25519 public key', null],
    ['and 3 more problems', null],
    ['name', null],
    ['', null],
  ])('%j → %j', (problem, field) => {
    expect(fieldOfProblem(problem)).toBe(field);
  });

  it('a 400 lists its problems in the order of its message, the overflow entry naming no field', () => {
    const problems = Array.from({ length: 52 }, (_, i) => `f${String(i).padStart(2, '0')} is wrong`);
    const error = new ValidationError(problems.reverse());
    expect(error.fieldProblems).toHaveLength(51);
    expect(error.fieldProblems.slice(0, 2)).toEqual([
      { field: 'f00', message: 'f00 is wrong' },
      { field: 'f01', message: 'f01 is wrong' },
    ]);
    expect(error.fieldProblems[50]).toEqual({ field: null, message: 'and 2 more problems' });
    expect(error.message).toBe(error.fieldProblems.map((problem) => problem.message).join('; '));
  });
});

describe('the answer to a failure', () => {
  it('problem details: about:blank, the reason phrase, the message as detail, the path as instance', () => {
    expect(
      errorAnswer('application/problem+json', '/api/v1/relayers/r-1?x=1', {
        status: 404,
        message: 'Relayer with ID r-1 not found',
      }),
    ).toEqual({
      contentType: 'application/problem+json',
      body: {
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'Relayer with ID r-1 not found',
        instance: '/api/v1/relayers/r-1',
      },
    });
  });

  it('a 400 without a list of problems names one, about no field', () => {
    expect(
      errorAnswer('application/problem+json', '/api/v1/x', { status: 400, message: 'bad' }).body,
    ).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'bad',
      instance: '/api/v1/x',
      errors: [{ field: null, message: 'bad' }],
    });
  });

  it('the envelope otherwise', () => {
    expect(errorAnswer('*/*', '/api/v1/x', { status: 400, message: 'bad' })).toEqual({
      contentType: 'application/json',
      body: { success: false, data: null, message: 'bad', error: 'bad' },
    });
  });
});
