import type { Response } from 'supertest';

/** The exact error envelope of docs/reference/envelope-and-errors.md. */
export const errorBody = (message: string) => ({ success: false, data: null, message, error: message });

/** The exact success envelope of docs/reference/envelope-and-errors.md. */
export const successBody = (data: unknown) => ({ success: true, data, error: null });

/** The OpenAPI schema of an error envelope, as the document states it for every error status. */
export const ERROR_ENVELOPE_SCHEMA = {
  type: 'object',
  required: ['success', 'data', 'message', 'error'],
  properties: {
    success: { type: 'boolean', example: false },
    data: { type: ['object', 'null'], example: null },
    message: { type: 'string' },
    error: { type: 'string', description: 'The same text as message' },
  },
};

/** Asserts an error envelope with this status whose message matches (exactly, or by pattern). */
export function expectError(res: Response, status: number, message: string | RegExp): void {
  expect({ status: res.status, type: res.type }).toEqual({ status, type: 'application/json' });
  if (typeof message === 'string') {
    expect(res.body).toEqual(errorBody(message));
  } else {
    expect(res.body).toEqual(errorBody(expect.stringMatching(message) as unknown as string));
  }
}
