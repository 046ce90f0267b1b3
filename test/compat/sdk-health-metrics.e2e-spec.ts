import { Configuration, MetricsApi, RelayerNetworkType, SignerTypeRequest } from '@openzeppelin/relayer-sdk';
import { randomBytes } from 'node:crypto';
import { secrets } from '../support/secrets';
import { useTestApp } from '../support/test-app';
import { KEY1 } from '../support/test-catalogue';
import { type Sdk, sdkFor, refusal, refused, answer } from './sdk';

describe('Health/Metrics: HealthApi, MetricsApi, and every protected method without the key', () => {
  const handle = useTestApp();
  const sdk = () => sdkFor(handle.current);

  it('health → 200 "OK", with or without a token', async () => {
    expect(answer(await sdk().health.health())).toEqual({ status: 200, body: 'OK' });
    expect(answer(await sdkFor(handle.current, null).health.health())).toEqual({ status: 200, body: 'OK' });
  });

  it('readiness → 200 with the Terminus body of docs/reference/running.md#2-probes (not the SDK ReadinessResponse)', async () => {
    const ready = await sdkFor(handle.current, null).health.readiness();
    expect(answer(ready)).toEqual({
      status: 200,
      body: {
        status: 'ok',
        info: { database: { status: 'up', responseTime: expect.any(Number) } },
        error: {},
        details: { database: { status: 'up', responseTime: expect.any(Number) } },
      },
    });
  });

  it('listMetrics and scrapeMetrics as the SDK sends them (no Authorization header) → 401', async () => {
    expect(await refusal(sdk().metrics.listMetrics())).toEqual(refused(401, 'Unauthorized'));
    expect(await refusal(sdk().metrics.scrapeMetrics())).toEqual(refused(401, 'Unauthorized'));
  });

  it('listMetrics with the key in the request options → 200 with the names of the metrics as a JSON array', async () => {
    const list = await sdk().metrics.listMetrics(sdk().auth);
    expect(list.status).toBe(200);
    expect(list.data).toEqual(
      expect.arrayContaining([
        'http_requests_total',
        'http_request_duration_seconds',
        'webhook_deliveries_total',
        'relayer_health_checks_total',
      ]),
    );
    expect(list.data.every((name) => /^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name))).toBe(true);
    expect(new Set(list.data).size).toBe(list.data.length);
    // The same key for every call, through the configuration's base options (as the README shows).
    const { baseUrl, apiKey } = handle.current;
    const authorization = { Authorization: `Bearer ${apiKey}` };
    const configured = new MetricsApi(
      new Configuration({ basePath: baseUrl, accessToken: apiKey, baseOptions: { headers: authorization } }),
    );
    expect(answer(await configured.listMetrics())).toEqual({ status: 200, body: list.data });
  });

  it('metricDetail of a listed name → that metric alone in Prometheus text', async () => {
    const detail = await sdk().metrics.metricDetail('http_requests_total');
    expect(detail.status).toBe(200);
    expect(detail.data).toContain('# HELP http_requests_total ');
    expect(detail.data).toContain('# TYPE http_requests_total counter');
    expect(detail.data.match(/^# TYPE /gm)).toHaveLength(1);
  });

  it('metricDetail of an unknown name → 404 "Metric not found"', async () => {
    expect(await refusal(sdk().metrics.metricDetail('no_such_metric'))).toEqual(
      refused(404, 'Metric not found'),
    );
  });

  it('scrapeMetrics with the key in the request options → every metric in Prometheus text', async () => {
    const scrape = await sdk().metrics.scrapeMetrics(sdk().auth);
    const names = (await sdk().metrics.listMetrics(sdk().auth)).data;
    expect(scrape.status).toBe(200);
    for (const name of names) expect(scrape.data).toContain(`# TYPE ${name} `);
  });

  it.each([
    ['listRelayers', (api: Sdk) => api.relayers.listRelayers()],
    ['getRelayer', (api: Sdk) => api.relayers.getRelayer('any')],
    [
      'createRelayer',
      (api: Sdk) =>
        api.relayers.createRelayer({
          name: 'x',
          network: 'sepolia',
          network_type: RelayerNetworkType.EVM,
          paused: false,
          signer_id: KEY1.id,
        }),
    ],
    ['updateRelayer', (api: Sdk) => api.relayers.updateRelayer('any', { paused: true })],
    ['deleteRelayer', (api: Sdk) => api.relayers.deleteRelayer('any')],
    ['getRelayerStatus', (api: Sdk) => api.relayers.getRelayerStatus('any')],
    ['getRelayerBalance', (api: Sdk) => api.relayers.getRelayerBalance('any')],
    ['listNotifications', (api: Sdk) => api.notifications.listNotifications()],
    ['getNotification', (api: Sdk) => api.notifications.getNotification('any')],
    [
      'createNotification',
      (api: Sdk) => api.notifications.createNotification({ url: 'https://hooks.example.com' }),
    ],
    [
      'updateNotification',
      (api: Sdk) => api.notifications.updateNotification('any', { url: 'https://x.example.com' }),
    ],
    ['deleteNotification', (api: Sdk) => api.notifications.deleteNotification('any')],
    ['listSigners', (api: Sdk) => api.signers.listSigners()],
    ['getSigner', (api: Sdk) => api.signers.getSigner(KEY1.id)],
    [
      'createSigner',
      (api: Sdk) => api.signers.createSigner({ type: SignerTypeRequest.PLAIN, config: { key: KEY1.hex } }),
    ],
    ['updateSigner', (api: Sdk) => api.signers.updateSigner(KEY1.id, {})],
    ['deleteSigner', (api: Sdk) => api.signers.deleteSigner(KEY1.id)],
    ['listNetworks', (api: Sdk) => api.networks.listNetworks()],
    ['getNetwork', (api: Sdk) => api.networks.getNetwork('evm:sepolia')],
    [
      'updateNetwork',
      (api: Sdk) => api.networks.updateNetwork('evm:sepolia', { rpc_urls: ['https://x.example.com'] }),
    ],
    ['listMetrics', (api: Sdk) => api.metrics.listMetrics(api.auth)],
    ['metricDetail', (api: Sdk) => api.metrics.metricDetail('http_requests_total')],
    ['scrapeMetrics', (api: Sdk) => api.metrics.scrapeMetrics(api.auth)],
  ])('%s with a wrong token or none → 401 "Unauthorized"', async (_method, call) => {
    const wrong = sdkFor(handle.current, secrets.add(randomBytes(36).toString('base64url')));
    expect(await refusal(call(wrong))).toEqual(refused(401, 'Unauthorized'));
    expect(await refusal(call(sdkFor(handle.current, null)))).toEqual(refused(401, 'Unauthorized'));
  });
});
