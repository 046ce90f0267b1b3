import { useTestApp } from './support/test-app';

describe('OpenAPI document', () => {
  const handle = useTestApp();

  it('is public at /api/docs-json and describes every route with its body, envelope and errors', async () => {
    const res = await handle.current.get('/api/docs-json', false).expect(200);
    const doc = res.body as {
      paths: Record<
        string,
        Record<string, { requestBody?: unknown; responses: Record<string, unknown>; security?: unknown }>
      >;
      components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
    };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        'DELETE /api/v1/notifications/{notification_id}',
        'DELETE /api/v1/relayers/{relayer_id}',
        'GET /api/v1/health',
        'GET /api/v1/networks',
        'GET /api/v1/notifications',
        'GET /api/v1/notifications/{notification_id}',
        'GET /api/v1/ready',
        'GET /api/v1/relayers',
        'GET /api/v1/relayers/{relayer_id}',
        'GET /api/v1/signers',
        'GET /metrics',
        'PATCH /api/v1/notifications/{notification_id}',
        'PATCH /api/v1/relayers/{relayer_id}',
        'POST /api/v1/notifications',
        'POST /api/v1/relayers',
      ].sort(),
    );
    expect(Object.keys(doc.paths['/api/v1/relayers'].post.responses).sort()).toEqual([
      '201',
      '400',
      '401',
      '409',
      '413',
      '429',
      '500',
      '503',
      '504',
    ]);
    expect(Object.keys(doc.paths['/api/v1/relayers/{relayer_id}'].patch.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '404',
      '413',
      '429',
      '500',
      '503',
      '504',
    ]);
    expect(doc.paths['/api/v1/relayers'].post.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateRelayerDto' } } },
    });
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'CreateRelayerDto',
        'UpdateRelayerDto',
        'RelayerResponse',
        'CreateNotificationDto',
        'UpdateNotificationDto',
        'NotificationResponse',
        'RpcConfigDto',
      ]),
    );
    expect(doc.components.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'The API_KEY' },
    });
    expect(res.text).not.toContain(handle.current.apiKey);
  });

  it('serves the UI at /api/docs without a token', async () => {
    const res = await handle.current.get('/api/docs', false).redirects(1).expect(200);
    expect(res.text).toContain('swagger-ui');
  });
});
