import { validate } from '@readme/openapi-parser';
import { WEBHOOK_EVENTS } from '../../src/webhooks/webhook-events';
import { ERROR_ENVELOPE_SCHEMA } from '../support/envelope';
import { openApiDocument } from '../support/routes';
import { createTestDatabase } from '../support/test-database';
import { startTestApp, useTestApp } from '../support/test-app';

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
    // Which routes it holds: the router's, each with its permission (test/http/routes.e2e-spec.ts, which
    // also checks them against docs/security.md's table of every route).
    expect(Object.keys(doc.paths['/api/v1/relayers'].post.responses).sort()).toEqual([
      '201',
      '400',
      '401',
      '403',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
      '504',
    ]);
    expect(Object.keys(doc.paths['/api/v1/relayers/{relayer_id}'].patch.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '412',
      '413',
      '415',
      '429',
      '500',
      '503',
      '504',
    ]);
    const jsonBody = (name: string) => ({
      required: true,
      content: {
        'application/json': { schema: { $ref: `#/components/schemas/${name}` } },
        'application/merge-patch+json': { schema: { $ref: `#/components/schemas/${name}` } },
      },
    });
    expect(doc.paths['/api/v1/relayers'].post.requestBody).toEqual(jsonBody('CreateRelayerDto'));
    expect(doc.paths['/api/v1/relayers/{relayer_id}'].patch.requestBody).toEqual(
      jsonBody('UpdateRelayerDto'),
    );
    expect(doc.paths['/api/v1/notifications/{notification_id}'].patch.requestBody).toEqual(
      jsonBody('UpdateNotificationDto'),
    );
    expect(doc.paths['/api/v1/signers'].post.requestBody).toEqual(jsonBody('CreateSignerDto'));
    expect(doc.paths['/api/v1/networks/{network_id}'].patch.requestBody).toEqual(
      jsonBody('UpdateNetworkDto'),
    );
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'CreateSignerDto',
        'SignerResponse',
        'UpdateNetworkDto',
        'NetworkResponse',
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

  it('types policies as one schema per network type, from the rules the service applies', async () => {
    const schemas = (
      await openApiDocument<{ components: { schemas: Record<string, SchemaWithPolicies> } }>(handle.current)
    ).components.schemas;
    interface PolicySchema {
      title: string;
      type: string;
      additionalProperties: boolean;
      properties: Record<string, Record<string, unknown>>;
    }
    interface SchemaWithPolicies {
      properties: { policies: { anyOf: [{ oneOf: PolicySchema[] }, { type: string }] } };
    }
    for (const name of ['CreateRelayerDto', 'UpdateRelayerDto', 'RelayerResponse']) {
      const { policies } = schemas[name].properties;
      expect({
        // Nullable, in 3.1 form: one of the policies, or null.
        nullable: policies.anyOf[1],
        variants: policies.anyOf[0].oneOf.map((p) => [
          p.title,
          p.type,
          p.additionalProperties,
          Object.keys(p.properties),
        ]),
      }).toEqual({
        nullable: { type: 'null' },
        variants: [
          [
            'EvmPolicy',
            'object',
            false,
            [
              'eip1559_pricing',
              'gas_limit_estimation',
              'gas_price_cap',
              'include_revert_data',
              'min_balance',
              'private_transactions',
              'whitelist_receivers',
            ],
          ],
          [
            'SolanaPolicy',
            'object',
            false,
            [
              'allowed_accounts',
              'allowed_programs',
              'allowed_tokens',
              'disallowed_accounts',
              'fee_margin_percentage',
              'fee_payment_strategy',
              'max_allowed_fee_lamports',
              'max_signatures',
              'max_tx_data_size',
              'min_balance',
              'swap_config',
            ],
          ],
          [
            'StellarPolicy',
            'object',
            false,
            [
              'allowed_tokens',
              'concurrent_transactions',
              'fee_margin_percentage',
              'fee_payment_strategy',
              'max_fee',
              'min_balance',
              'slippage_percentage',
              'swap_config',
              'timeout_seconds',
            ],
          ],
        ],
      });
    }
    const [evm, solana] = schemas.CreateRelayerDto.properties.policies.anyOf[0].oneOf;
    expect(solana.properties.fee_payment_strategy).toEqual({
      type: 'string',
      enum: ['user', 'relayer'],
      default: 'user',
    });
    expect(solana.properties.max_signatures).toEqual({
      type: ['integer', 'null'],
      minimum: 0,
      maximum: 2147483647,
    });
    expect(evm.properties.min_balance).toEqual({
      anyOf: [
        {
          oneOf: [
            { type: 'integer', minimum: 0 },
            { type: 'string', pattern: '^\\d+$', maxLength: 1000 },
          ],
        },
        { type: 'null' },
      ],
      description: 'wei, exact: a whole JSON number or a string of decimal digits (answered as a number)',
    });
  });

  it('documents safe writes (docs/reference/safe-writes.md): ETag on single resources and lists, If-None-Match and 304 on their GETs, If-Match and 412, dry_run', async () => {
    interface Operation {
      parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown }>;
      responses: Record<string, { headers?: Record<string, { schema: { type: string } }> }>;
    }
    const { paths } = await openApiDocument<{ paths: Record<string, Record<string, Operation>> }>(
      handle.current,
    );
    const relayer = '/api/v1/relayers/{relayer_id}';
    const notification = '/api/v1/notifications/{notification_id}';
    const tagged: Array<[string, string, string]> = [
      ['/api/v1/relayers', 'post', '201'],
      [relayer, 'get', '200'],
      [relayer, 'patch', '200'],
      ['/api/v1/notifications', 'post', '201'],
      [notification, 'get', '200'],
      [notification, 'patch', '200'],
    ];
    for (const [path, method, status] of tagged) {
      const etag = paths[path][method].responses[status].headers?.ETag.schema.type;
      expect({ path, method, etag }).toEqual({ path, method, etag: 'string' });
    }
    const parameter = (path: string, method: string, name: string) =>
      paths[path][method].parameters?.find((p) => p.name === name);
    // Conditional GETs (docs/reference/safe-writes.md#14-conditional-gets): lists and tagged resources.
    for (const path of ['/api/v1/relayers', '/api/v1/notifications', relayer, notification]) {
      expect({
        path,
        etag: paths[path].get.responses['200'].headers?.ETag.schema.type,
        ifNoneMatch: parameter(path, 'get', 'If-None-Match'),
        notModified: Object.keys(paths[path].get.responses).includes('304'),
      }).toEqual({
        path,
        etag: 'string',
        ifNoneMatch: expect.objectContaining({ in: 'header', required: false }),
        notModified: true,
      });
    }
    for (const [path, method] of [
      ['/api/v1/relayers', 'post'],
      ['/api/v1/relayers/summary', 'get'],
    ]) {
      expect({
        path,
        method,
        ifNoneMatch: parameter(path, method, 'If-None-Match'),
        notModified: Object.keys(paths[path][method].responses).includes('304'),
      }).toEqual({ path, method, ifNoneMatch: undefined, notModified: false });
    }
    for (const [path, method] of [
      [relayer, 'patch'],
      [relayer, 'delete'],
      [notification, 'patch'],
      [notification, 'delete'],
    ]) {
      expect({ path, method, header: parameter(path, method, 'If-Match') }).toEqual({
        path,
        method,
        header: expect.objectContaining({ in: 'header', required: false }),
      });
      expect(Object.keys(paths[path][method].responses)).toContain('412');
    }
    for (const [path, method] of [
      ['/api/v1/relayers', 'post'],
      [relayer, 'patch'],
    ]) {
      expect(parameter(path, method, 'dry_run')).toEqual(
        expect.objectContaining({
          in: 'query',
          required: false,
          schema: { type: 'boolean', default: false },
        }),
      );
    }
  });

  it('is the same document in a second app of the same process, and a route that always refuses documents its 400 as the error envelope', async () => {
    const first = await openApiDocument<{ paths: Record<string, Record<string, unknown>> }>(handle.current);
    const database = await createTestDatabase();
    const second = await startTestApp({ DATABASE_URL: database.url });
    try {
      expect(await openApiDocument(second)).toEqual(first);
    } finally {
      await second.close();
      await database.drop();
    }
    const update = first.paths['/api/v1/signers/{signer_id}'].patch as {
      responses: Record<string, { content: { 'application/json': { schema: unknown } } }>;
    };
    expect(update.responses['400'].content['application/json'].schema).toEqual(ERROR_ENVELOPE_SCHEMA);
  });

  it('is OpenAPI 3.1: it validates as 3.1, with no schema left in 3.0 form', async () => {
    const doc = await openApiDocument<Record<string, unknown>>(handle.current);
    const keys = new Set<string>();
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (typeof value === 'object' && value !== null) {
        for (const [key, child] of Object.entries(value)) {
          if (typeof child === 'boolean') keys.add(key);
          collect(child);
        }
      }
    };
    collect(doc);
    expect({
      openapi: doc.openapi,
      threeZeroKeywords: ['nullable', 'exclusiveMinimum', 'exclusiveMaximum'].filter((k) => keys.has(k)),
      validation: await validate(structuredClone(doc) as Parameters<typeof validate>[0]),
    }).toEqual({
      openapi: '3.1.0',
      threeZeroKeywords: [],
      validation: { valid: true, warnings: [], specification: 'OpenAPI' },
    });
  });

  it('describes every event body under webhooks, one entry per event name (WEBHOOK_EVENTS)', async () => {
    interface Webhook {
      post: {
        operationId: string;
        parameters: Array<{ name: string; in: string; required: boolean }>;
        requestBody: { required: boolean; content: Record<string, { schema: unknown }> };
        responses: Record<string, unknown>;
      };
    }
    const { webhooks } = await openApiDocument<{ webhooks: Record<string, Webhook> }>(handle.current);
    expect(Object.keys(webhooks)).toEqual([...WEBHOOK_EVENTS]);
    const relayer = { $ref: '#/components/schemas/RelayerResponse' };
    const body = (event: string, payload: unknown) => ({
      type: 'object',
      required: ['id', 'event', 'payload', 'timestamp'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        event: { type: 'string', enum: [event] },
        payload,
        timestamp: { type: 'string', format: 'date-time' },
      },
    });
    const schemaOf = (event: string) => webhooks[event].post.requestBody.content['application/json'].schema;
    expect(schemaOf('relayer_updated')).toEqual(
      body('relayer_updated', {
        type: 'object',
        required: ['payload_type', 'relayer', 'changed'],
        properties: {
          payload_type: { type: 'string', enum: ['relayer_updated'] },
          relayer,
          changed: {
            type: 'array',
            description: 'The fields the PATCH changed, sorted',
            items: {
              type: 'string',
              enum: ['custom_rpc_urls', 'name', 'notification_id', 'paused', 'policies'],
            },
          },
        },
      }),
    );
    expect(schemaOf('notification_test')).toEqual(
      body('notification_test', {
        type: 'object',
        required: ['payload_type', 'notification_id'],
        properties: {
          payload_type: { type: 'string', enum: ['notification_test'] },
          notification_id: { type: 'string' },
        },
      }),
    );
    const stateUpdate = schemaOf('relayer_state_update') as {
      properties: { payload: { oneOf: Array<{ required: string[] }> } };
    };
    expect(stateUpdate.properties.payload.oneOf.map((p) => p.required)).toEqual([
      ['payload_type', 'relayer', 'disable_reason'],
      ['payload_type', 'relayer', 'retry_count'],
    ]);
    expect(
      Object.values(webhooks).map(({ post }) => ({
        operationId: post.operationId,
        headers: post.parameters.filter((p) => p.in === 'header' && p.required).map((p) => p.name),
        required: post.requestBody.required,
        responses: Object.keys(post.responses),
      })),
    ).toEqual(
      WEBHOOK_EVENTS.map((event) => ({
        operationId: `webhook_${event}`,
        headers: ['X-Event-Id', 'X-Event-Type', 'User-Agent'],
        required: true,
        responses: ['2XX'],
      })),
    );
  });

  it('serves the UI at /api/docs without a token', async () => {
    const res = await handle.current.get('/api/docs', false).redirects(1).expect(200);
    expect(res.text).toContain('swagger-ui');
  });

  it('serves the UI under the console’s policy and headers (it is on the console’s origin): no inline script or style', async () => {
    /** The console's headers (docs/console.md#4-security), exactly. */
    const headers = {
      'content-security-policy':
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
        "font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    };
    const headersOf = (res: { headers: Record<string, string> }) =>
      Object.fromEntries(Object.keys(headers).map((name) => [name, res.headers[name]]));
    const consolePage = await handle.current.get('/console/', false);
    expect(headersOf(consolePage)).toEqual(headers);
    for (const [page, base] of [
      ['/api/docs', '/api/docs/'],
      ['/api/docs/', '/api/docs/'],
      ['/api/docs/index.html', '/api/docs/'],
    ]) {
      const res = await handle.current.get(page, false).expect(200);
      expect({ page, type: res.type, headers: headersOf(res) }).toEqual({ page, type: 'text/html', headers });
      // Nothing inline: every script and style is a file, and no element carries a style.
      expect(
        [...res.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].every(
          ([, a, body]) => /\ssrc=/.test(a) && body.trim() === '',
        ),
      ).toBe(true);
      expect(res.text).not.toMatch(/<style|\sstyle=/);
      const assets = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map(
        ([, url]) => new URL(url, `http://x${page}`).pathname,
      );
      expect(assets).toEqual(
        [
          'swagger-ui.css',
          'index.css',
          'favicon-32x32.png',
          'swagger-ui-bundle.js',
          'swagger-ui-standalone-preset.js',
          'swagger-ui-init.js',
        ].map((file) => `${base}${file}`),
      );
      for (const asset of assets) {
        const file = await handle.current.get(asset, false);
        expect({ asset, status: file.status, headers: headersOf(file) }).toEqual({
          asset,
          status: 200,
          headers,
        });
      }
    }
    // No request to another host (the online validator's badge is one), and no top bar (its logo
    // has an inline style; its box loads any document by URL).
    const init = await handle.current.get('/api/docs/swagger-ui-init.js', false).expect(200);
    expect(init.text).toContain('"validatorUrl": null');
    expect(init.text).toContain('"layout": "BaseLayout"');
  });
});
