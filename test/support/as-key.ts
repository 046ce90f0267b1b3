import request from 'supertest';
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
