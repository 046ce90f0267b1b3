// Shared test data: ids, matchers of what the service generates, request bodies and create
// helpers over a running test app. Every e2e, compat and slice test takes these from here.
import { randomBytes } from 'node:crypto';
import { as } from '../support/as-key';
import { secrets } from '../support/secrets';
import { defaultCatalogue, type AppHandle, type TestApp } from '../support/test-app';

/** A fresh id that names what it is for: `uid('hook')` gives `hook-3f0a…`. */
export const uid = (prefix: string): string => `${prefix}-${randomBytes(6).toString('hex')}`;

/** Dates as the service writes them (docs/reference/hardening.md "Dates"): UTC with milliseconds. */
export const ISO_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const ISO = expect.stringMatching(ISO_PATTERN) as unknown as string;

/** Any UUID-shaped id (as stored for keys and audit entries). */
export const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown as string;

/** A random (version 4) UUID, as generated for a resource created without an id. */
export const UUID_V4_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const UUID_V4 = expect.stringMatching(UUID_V4_PATTERN) as unknown as string;

export type NetworkType = 'evm' | 'solana' | 'stellar';

/** The testnet of each network type in the test catalogue (test/support/test-catalogue.ts). */
export const NETWORK = { evm: 'sepolia', solana: 'devnet', stellar: 'testnet' } as const;

export type Body = Record<string, unknown>;

/** What the relayer bodies hold unless the caller lays other fields over them. */
interface RelayerDefaults {
  id: string;
  name: string;
  network: string;
  network_type: NetworkType;
  paused: boolean;
  signer_id: string;
}

/** The defaults with the caller's fields laid over them (typed as the caller gave them). */
export type RelayerBody<F extends object, D extends keyof RelayerDefaults = keyof RelayerDefaults> = Omit<
  Pick<RelayerDefaults, D>,
  keyof F
> &
  F;

/**
 * A valid relayer create body of this network type without an id (the service generates one):
 * the type's testnet, not paused, a free signer of the default catalogue. `fields` are laid over it.
 */
export function anonymousRelayerBody<F extends object = Record<never, never>>(
  type: NetworkType = 'evm',
  fields?: F,
): RelayerBody<F, Exclude<keyof RelayerDefaults, 'id'>> {
  const given: object = fields ?? {};
  // A signer is taken from the pool only when the caller names none.
  const signer = 'signer_id' in given ? {} : { signer_id: defaultCatalogue().nextSigner() };
  return {
    name: `relayer ${type}`,
    network: NETWORK[type],
    network_type: type,
    paused: false,
    ...signer,
    ...given,
  } as unknown as RelayerBody<F, Exclude<keyof RelayerDefaults, 'id'>>;
}

/** A valid relayer create body with a fresh id (`r-…`). */
export function relayerBody<F extends object = Record<never, never>>(
  type: NetworkType = 'evm',
  fields?: F,
): RelayerBody<F> {
  return anonymousRelayerBody(type, { id: uid('r'), ...fields }) as unknown as RelayerBody<F>;
}

/** A valid notification create body with a fresh id (`n-…`) and a public URL. */
export function notificationBody(fields: object = {}): Body {
  return { id: uid('n'), url: 'https://hooks.example.com/hook', ...fields };
}

/** A fresh signer private key (32 bytes, hex), registered as a secret that no log may show. */
export const signerKey = (): string => secrets.add(randomBytes(32).toString('hex'));

/** A valid signer create body with a fresh id (`s-…`) and a plain key. */
export function signerBody(fields: object = {}): Body {
  return { id: uid('s'), type: 'plain', config: { key: signerKey() }, ...fields };
}

/** A plain signer of a configuration file (CONFIG_FILE's `signers`). */
export const fileSigner = (id: string): Body => ({
  id,
  type: 'plain',
  config: { key: { type: 'plain', value: signerKey() } },
});

/** `count` plain signers of a configuration file: `prefix-0`, `prefix-1`, ... */
export const fileSigners = (prefix: string, count: number): Body[] =>
  Array.from({ length: count }, (_, i) => fileSigner(`${prefix}-${i}`));

/** Creates a relayer through the API (201 expected) and returns its `data`. */
export async function createRelayer(
  app: TestApp,
  type: NetworkType = 'evm',
  fields: object = {},
): Promise<Body> {
  return (await app.post('/api/v1/relayers', relayerBody(type, fields)).expect(201)).body.data as Body;
}

/** Creates a notification through the API (201 expected) and returns its `data`. */
export async function createNotification(app: TestApp, fields: object = {}): Promise<Body> {
  return (await app.post('/api/v1/notifications', notificationBody(fields)).expect(201)).body.data as Body;
}

/**
 * Sets a notification's subscription through the API (200 expected) and returns its `data`: the
 * events (null: every event) and the relayers (null: the ones naming it, `*`: every one) it hears.
 */
export async function subscribe(app: TestApp, notificationId: string, fields: object): Promise<Body> {
  return (await app.put(`/api/v1/notifications/${notificationId}/subscription`, fields).expect(200)).body
    .data as Body;
}

/**
 * Sets a balance alert through the API (200 expected) and returns its `data`: `owner` is
 * `relayers/<id>` or `networks/<id>`, `threshold` in the network's smallest unit (null: none).
 */
export async function setBalanceAlert(app: TestApp, owner: string, threshold: string | null): Promise<Body> {
  return (await app.put(`/api/v1/${owner}/balance-alert`, { threshold }).expect(200)).body.data as Body;
}

/** An API key as its create (and rotate) answers it: the only answers that show `key`. */
export interface CreatedKey {
  id: string;
  key: string;
  name: string;
  permissions: string[];
  relayer_ids?: string[];
  allowed_cidrs?: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  key_prefix: string;
  created_by_key_id: string | null;
}

/** A valid API key create body: a fresh name (`key-…`), reading relayers. `fields` are laid over it. */
export function keyBody(fields: object = {}): Body {
  return { name: uid('key'), permissions: ['relayers:read'], ...fields };
}

/**
 * Creates an API key through the API as `by` (the administrator's key when absent), 201 expected,
 * registers its secret and returns its `data`.
 */
export async function createKey(
  app: TestApp,
  fields: object = {},
  by: string = app.apiKey,
): Promise<CreatedKey> {
  const created = (await as(app, by).post('/api/v1/api-keys', keyBody(fields)).expect(201)).body
    .data as CreatedKey;
  secrets.add(created.key);
  return created;
}

/** One relayer of a fixture of every state: its id, network, and whether it is paused or disabled by the system. */
export interface RelayerFixture {
  id: string;
  type: NetworkType;
  network: string;
  paused: boolean;
  disabled: boolean;
}

/** A fixture's fields beyond its state, laid over its create body (a name, custom RPC URLs...); `i`: its place. */
export type FixtureFields = (fixture: RelayerFixture, i: number) => object;

/**
 * Names for the ten of relayersInEveryState, in order, for the list's search and its order by name:
 * two that differ only in case, LIKE's wildcards (`%`, `_`), its escapes (`\`, and `!`, the one the
 * service uses), and `ops 50% reserve` beside `ops 500 reserve`, which `50%` as a pattern would find too.
 */
export const FIXTURE_NAMES = [
  'Payments EU 1',
  'payments us',
  'Treasury',
  'ops 50% reserve',
  'ops 500 reserve',
  'Alpha',
  'alpha',
  'under_score',
  'back\\slash',
  'Zeta!',
] as const;

/** FIXTURE_NAMES as fixture fields (createRelayerFixtures). */
export const fixtureNames: FixtureFields = (_fixture, i) => ({ name: FIXTURE_NAMES[i] });

/**
 * Ten relayers, in creation order, over every network type and state (paused, disabled by the system,
 * both, neither): `<p>01` to `<p>09`, which a scope `<p>0*` sees, and `<q>10`, which it does not.
 */
export const relayersInEveryState = (p: string, q: string): RelayerFixture[] => [
  { id: `${p}01`, type: 'evm', network: 'sepolia', paused: false, disabled: false },
  { id: `${p}02`, type: 'evm', network: 'sepolia', paused: true, disabled: false },
  { id: `${p}03`, type: 'evm', network: 'mainnet', paused: false, disabled: false },
  { id: `${p}04`, type: 'evm', network: 'mainnet', paused: false, disabled: true },
  { id: `${p}05`, type: 'evm', network: 'mainnet', paused: true, disabled: true },
  { id: `${p}06`, type: 'solana', network: 'devnet', paused: false, disabled: false },
  { id: `${p}07`, type: 'solana', network: 'mainnet-beta', paused: true, disabled: false },
  { id: `${p}08`, type: 'stellar', network: 'testnet', paused: false, disabled: true },
  { id: `${p}09`, type: 'stellar', network: 'mainnet', paused: false, disabled: false },
  { id: `${q}10`, type: 'stellar', network: 'mainnet', paused: true, disabled: false },
];

/**
 * Creates the fixtures through the API, in order (with `fields` of each laid over its body), then
 * disables by the system those marked so (no route does).
 */
export async function createRelayerFixtures(
  handle: AppHandle,
  fixtures: readonly RelayerFixture[],
  fields: FixtureFields = () => ({}),
): Promise<void> {
  for (const [i, f] of fixtures.entries()) {
    await handle.current
      .post(
        '/api/v1/relayers',
        relayerBody(f.type, { id: f.id, network: f.network, paused: f.paused, ...fields(f, i) }),
      )
      .expect(201);
  }
  const disabled = fixtures.filter((f) => f.disabled).map((f) => `'${f.id}'`);
  await handle.database.exec(
    `UPDATE relayers SET system_disabled = 1, disabled_reason = '{"type":"NonceSyncFailed","details":"nonce gap"}' WHERE id IN (${disabled.join(', ')})`,
  );
}
