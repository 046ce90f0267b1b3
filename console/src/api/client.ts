import createClient from 'openapi-fetch';
import type { components, paths } from './schema';
import { caller, csrfToken, signedOutByService, storedKey } from '../session';
import { TagCache } from './tag-cache';

export type Schemas = components['schemas'];
export type Relayer = Schemas['RelayerResponse'];

/** The page of a list answer (docs/reference/pagination.md). */
export interface Pagination {
  current_page: number;
  per_page: number;
  total_items: number;
}

/** An answer that was not a success: the API's own message, shown as text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Requests that change nothing: the only ones a session's cookie authorizes without its CSRF token. */
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * The typed client of the service's own API (types generated from its OpenAPI document by
 * `npm run console:types`), same origin only: every call carries the signed-in key, or, for a person,
 * goes with their session cookie (the browser sends it) and, when it changes anything, their CSRF token.
 */
export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use({
  onRequest({ request }) {
    const key = storedKey();
    const csrf = csrfToken();
    if (key !== null) request.headers.set('Authorization', `Bearer ${key}`);
    else if (csrf !== null && !READS.has(request.method)) request.headers.set('X-CSRF-Token', csrf);
    return request;
  },
});

/** The last tagged answer of each GET of the signed-in key or person (another's are forgotten at once). */
const tagged = new TagCache();
let taggedFor: string | null = null;

/**
 * Every GET asks again with the ETag of the answer it last had (If-None-Match), and a 304 is read as
 * that answer: a list read again every 15 s that has not changed costs no body
 * (docs/reference/pagination.md#16-etag-and-304, docs/console.md#32-live-pages). The one place where
 * the console revalidates: an If-None-Match set by hand also keeps the browser's own cache out of it.
 */
api.use({
  onRequest({ request }) {
    if (request.method !== 'GET') return request;
    const who = request.headers.get('Authorization') ?? caller();
    if (who !== taggedFor) {
      tagged.clear();
      taggedFor = who;
    }
    const kept = tagged.get(who, request.url);
    if (kept !== undefined) request.headers.set('If-None-Match', kept.etag);
    return request;
  },
  async onResponse({ request, response }) {
    if (request.method !== 'GET') return response;
    const who = request.headers.get('Authorization') ?? caller();
    if (response.status === 304) {
      const kept = tagged.get(who, request.url);
      if (kept === undefined) return response;
      return new Response(kept.body, { status: 200, statusText: 'OK', headers: kept.headers });
    }
    const etag = response.headers.get('ETag');
    // JSON answers only: a file (the configuration's download) is not kept.
    const json = response.headers.get('Content-Type')?.startsWith('application/json') === true;
    if (!response.ok || etag === null || !json) {
      tagged.delete(who, request.url);
      return response;
    }
    const body = await response.clone().text();
    tagged.set(who, request.url, { etag, body, headers: [...response.headers.entries()] });
    return response;
  },
});

interface Envelope<T> {
  data?: T;
  pagination?: Partial<Pagination> & { next_cursor?: string | null };
}

interface Result<T> {
  data?: Envelope<T>;
  error?: unknown;
  response: Response;
}

function messageOf(error: unknown, response: Response): string {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string')
    return error.message;
  return `${response.status} ${response.statusText}`.trim();
}

async function settle<B>(
  call: Promise<{ data?: B; error?: unknown; response: Response }>,
): Promise<{ body: B; response: Response }> {
  let result: { data?: B; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'The service did not answer: check that it is running, then try again.');
  }
  const { data, error, response } = result;
  if (response.status === 401) signedOutByService();
  if (!response.ok || data === undefined) throw new ApiError(response.status, messageOf(error, response));
  return { body: data, response };
}

/** The `data` of a success, or an ApiError with the API's message. */
export async function read<T>(call: Promise<Result<T>>): Promise<T> {
  const { body } = await settle(call);
  return body.data as T;
}

/** A page of a list and where it is in the whole. */
export async function readPage<T>(
  call: Promise<Result<T[]>>,
): Promise<{ items: T[]; pagination: Pagination }> {
  const { body } = await settle(call);
  const items = body.data ?? [];
  const p = body.pagination ?? {};
  return {
    items,
    pagination: {
      current_page: p.current_page ?? 1,
      per_page: p.per_page ?? items.length,
      total_items: p.total_items ?? items.length,
    },
  };
}

/**
 * A page of a list read by cursor (docs/reference/pagination.md#17-cursors): its items and the cursor
 * of the next, older page (null after the last).
 */
export async function readCursorPage<T>(
  call: Promise<Result<T[]>>,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const { body } = await settle(call);
  return { items: body.data ?? [], nextCursor: body.pagination?.next_cursor ?? null };
}

/** A write's answer with its ETag (docs/reference/safe-writes.md), for the next conditional write. */
export async function readWithTag<T>(call: Promise<Result<T>>): Promise<{ data: T; etag: string | null }> {
  const { body, response } = await settle(call);
  return { data: body.data as T, etag: response.headers.get('ETag') };
}

/**
 * A file the API answers bare, not in the envelope (GET /api/v1/config?download=true, called with
 * `parseAs: 'blob'`), with the name its Content-Disposition gives it.
 */
export async function readFile(
  call: Promise<{ data?: Blob; error?: unknown; response: Response }>,
): Promise<{ blob: Blob; filename: string | null }> {
  const { body, response } = await settle(call);
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: body, filename };
}
