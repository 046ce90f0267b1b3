import request from 'supertest';
import { uid } from '../factories';
import { secrets } from './secrets';
import type { TestApp } from './test-app';

/** supertest against the app with another bearer token (an API key's), or none when it is null. */
export const as = (app: TestApp, token: string | null) => {
  const auth = (test: request.Test) => (token === null ? test : test.set('Authorization', `Bearer ${token}`));
  return {
    get: (path: string) => auth(request(app.baseUrl).get(path)),
    post: (path: string, body?: object) => auth(request(app.baseUrl).post(path)).send(body ?? {}),
    patch: (path: string, body: object) => auth(request(app.baseUrl).patch(path)).send(body),
    put: (path: string, body: object) => auth(request(app.baseUrl).put(path)).send(body),
    delete: (path: string) => auth(request(app.baseUrl).delete(path)),
  };
};

/** A new API key made with the app's administrator key (its name `console-…` unless body names it), registered as a secret. */
export async function newKey(app: TestApp, body: object): Promise<string> {
  const res = await app.post('/api/v1/api-keys', { name: uid('console'), ...body }).expect(201);
  return secrets.add((res.body as { data: { key: string } }).data.key);
}
