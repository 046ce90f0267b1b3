import {
  Configuration,
  HealthApi,
  MetricsApi,
  NetworksApi,
  NotificationsApi,
  PluginsApi,
  RelayerNetworkType,
  RelayersApi,
  SignersApi,
  type CreateRelayerRequest,
} from '@openzeppelin/relayer-sdk';
import { base58 } from '@scure/base';
import { Keypair } from '@stellar/stellar-base';
import { randomBytes } from 'node:crypto';
import { privateKeyToAddress } from 'viem/accounts';
import { errorBody } from '../support/envelope';
import { secrets } from '../support/secrets';
import { type TestApp } from '../support/test-app';
import { KEY1 } from '../support/test-catalogue';
import { ISO, type NetworkType } from '../factories';

/*
 * The official TypeScript client of the reference system, @openzeppelin/relayer-sdk 1.10.0, against
 * the service: every SDK method whose route the service offers, success and refusal, with nothing
 * but the SDK on the wire. The README's "Using the official SDK" table points at these tests.
 */

// What the files of test/compat share: one SDK client per test app, the refusal and answer
// shapes, and the expected resources. Each file tests one resource (or one API) of the SDK.

export const ETH = 10n ** 18n;
export const encryptionKey = secrets.add(randomBytes(32).toString('base64'));

export interface Sdk {
  relayers: RelayersApi;
  notifications: NotificationsApi;
  signers: SignersApi;
  networks: NetworksApi;
  health: HealthApi;
  metrics: MetricsApi;
  plugins: PluginsApi;
  /**
   * Request options with the Authorization header the configuration sends. SDK 1.10.0 sends none
   * with listMetrics and scrapeMetrics (the reference system serves them without a key); here they
   * stay behind the key (docs/reference/running.md#4-metrics), so a client passes it like this.
   */
  auth: { headers: Record<string, string> };
}

/** The SDK's API classes, configured as its README shows; a null token sends no Authorization header. */
export function sdkFor(app: TestApp, accessToken: string | null = app.apiKey): Sdk {
  const configuration = new Configuration({ basePath: app.baseUrl, accessToken: accessToken ?? undefined });
  return {
    relayers: new RelayersApi(configuration),
    notifications: new NotificationsApi(configuration),
    signers: new SignersApi(configuration),
    networks: new NetworksApi(configuration),
    health: new HealthApi(configuration),
    metrics: new MetricsApi(configuration),
    plugins: new PluginsApi(configuration),
    auth: { headers: accessToken === null ? {} : { Authorization: `Bearer ${accessToken}` } },
  };
}

/** A refused call as the SDK reports it: axios's error, whose response holds status and body. */
export interface Refusal {
  status: number;
  data: unknown;
}

export function isHttpError(error: unknown): error is { isAxiosError: true; response: Refusal } {
  if (typeof error !== 'object' || error === null) return false;
  const { isAxiosError, response } = error as { isAxiosError?: unknown; response?: unknown };
  return (
    isAxiosError === true &&
    typeof response === 'object' &&
    response !== null &&
    typeof (response as { status?: unknown }).status === 'number'
  );
}

export async function refusal(call: Promise<unknown>): Promise<Refusal> {
  const outcome = await call.then(
    () => ({ settled: 'resolved' as const }),
    (error: unknown) => ({ settled: 'rejected' as const, error }),
  );
  if (outcome.settled === 'resolved') throw new Error('the SDK call succeeded where a refusal was expected');
  if (!isHttpError(outcome.error)) throw outcome.error;
  return { status: outcome.error.response.status, data: outcome.error.response.data };
}

export const refused = (status: number, message: string | RegExp): Refusal => ({
  status,
  data: errorBody(typeof message === 'string' ? message : expect.stringMatching(message)),
});

/** An SDK answer reduced to what a client reads: the status and the body. */
export const answer = <T>(res: { status: number; data: T }): { status: number; body: T } => ({
  status: res.status,
  body: res.data,
});

/** The addresses of a 32-byte key, each from a library of its own network (not the service's code). */
export function addressesOf(hex: string): { evm: string; solana: string; stellar: string } {
  const keypair = Keypair.fromRawEd25519Seed(Buffer.from(hex, 'hex'));
  return {
    evm: privateKeyToAddress(`0x${hex}`),
    solana: base58.encode(keypair.rawPublicKey()),
    stellar: keypair.publicKey(),
  };
}

export const SDK_NETWORK_TYPE: Record<NetworkType, RelayerNetworkType> = {
  evm: RelayerNetworkType.EVM,
  solana: RelayerNetworkType.SOLANA,
  stellar: RelayerNetworkType.STELLAR,
};
export const KEY1_ADDRESS: Record<NetworkType, string> = {
  evm: KEY1.evm,
  solana: KEY1.solana,
  stellar: KEY1.stellar,
};
export const DEFAULT_POLICIES: Record<NetworkType, object | null> = {
  evm: null,
  solana: { fee_payment_strategy: 'user' },
  stellar: null,
};

/** The relayer the service answers for a create with only the required fields. */
export const plainRelayer = (request: CreateRelayerRequest, address: string) => ({
  id: request.id,
  name: request.name,
  network: request.network,
  network_type: request.network_type,
  address,
  signer_id: request.signer_id,
  notification_id: null,
  paused: request.paused,
  system_disabled: false,
  disabled_reason: null,
  custom_rpc_urls: null,
  policies: DEFAULT_POLICIES[request.network_type],
  created_at: ISO,
  updated_at: ISO,
});

export const KEY1_SIGNER = {
  id: KEY1.id,
  type: 'local',
  config: {},
  addresses: { evm: KEY1.evm, solana: KEY1.solana, stellar: KEY1.stellar },
};
