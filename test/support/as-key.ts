import request from 'supertest';
import { uid } from '../factories';
import { secrets } from './secrets';
import type { TestApp } from './test-app';

/** supertest against the app with another bearer token (an API key's). */
export const as = (app: TestApp, token: string) => ({
  get: (path: string) => request(app.baseUrl).get(path).set('Authorization', `Bearer ${token}`),
  post: (path: string, body?: object) =>
    request(app.baseUrl)
      .post(path)
      .set('Authorization', `Bearer ${token}`)
      .send(body ?? {}),
  patch: (path: string, body: object) =>
    request(app.baseUrl).patch(path).set('Authorization', `Bearer ${token}`).send(body),
  put: (path: string, body: object) =>
    request(app.baseUrl).put(path).set('Authorization', `Bearer ${token}`).send(body),
  delete: (path: string) => request(app.baseUrl).delete(path).set('Authorization', `Bearer ${token}`),
});

/** A new API key made with the app's administrator key (its name `console-…` unless body names it), registered as a secret. */
export async function newKey(app: TestApp, body: object): Promise<string> {
  const res = await app.post('/api/v1/api-keys', { name: uid('console'), ...body }).expect(201);
  return secrets.add((res.body as { data: { key: string } }).data.key);
}
