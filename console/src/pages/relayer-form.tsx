import { useRef, useState } from 'preact/hooks';
import { BASE_UNIT, DEFAULT_SYMBOL, nativeAmount, parseNative, type NetworkType } from '../amounts';
import { api, ApiError, read, readPage, readWithTag, type Relayer, type Schemas } from '../api/client';
import { OutcomeText, useAction, useLoad } from '../components';
import { ConfirmDialog } from '../dialog';
import {
  Field,
  FieldError,
  NewIdField,
  controlProps,
  rpcBody,
  rpcPaths,
  rpcRows,
  RpcUrlsField,
  useFieldErrors,
  type FieldErrors,
  type RpcRow,
} from '../forms';
import { readNetworks, useSymbols } from '../networks';
import { navigate } from '../router';
import { can } from '../session';

const NETWORK_TYPES = ['evm', 'solana', 'stellar'] as const;
/** The first page of a list is enough to choose from; past it, the id is typed. */
const CHOICES = 100;
const MIN_BALANCE = 'policies.min_balance';

type Policies = Record<string, unknown>;

/** A relayer with the ETag of the answer it was read from (docs/reference/safe-writes.md). */
export interface TaggedRelayer {
  data: Relayer;
  etag: string | null;
}

/** What a pause does, said before it is done (contract 24.1). */
export function pauseEffect(relayer: Pick<Relayer, 'id'>): string {
  return `Relayer ${relayer.id} takes no work until it is resumed. The targets that hear it receive relayer_updated.`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The JSON merge patch (RFC 7396) that turns `before` into `after`: changed keys, removed ones as
 * null, nested objects patched in turn; a key whose value did not change is not sent.
 */
export function mergePatch(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    const was = before[key];
    if (isObject(was) && isObject(value)) {
      const inner = mergePatch(was, value);
      if (Object.keys(inner).length > 0) patch[key] = inner;
    } else if (!same(was, value)) patch[key] = value;
  }
  for (const key of Object.keys(before)) if (!(key in after)) patch[key] = null;
  return patch;
}

/** A number this browser holds inexactly (beyond 2^53 − 1), if the value has one. */
function inexactNumber(value: unknown): number | null {
  if (typeof value === 'number')
    return Number.isInteger(value) && !Number.isSafeInteger(value) ? value : null;
  if (Array.isArray(value)) return value.map(inexactNumber).find((n) => n !== null) ?? null;
  if (isObject(value))
    return (
      Object.values(value)
        .map(inexactNumber)
        .find((n) => n !== null) ?? null
    );
  return null;
}

/** The policies typed as JSON, or the problem that keeps them from being sent. */
function parsePolicies(text: string): { ok: true; policies: Policies } | { ok: false; problem: string } {
  if (text.trim() === '') return { ok: true, policies: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: `policies is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (!isObject(parsed))
    return { ok: false, problem: 'policies must be a JSON object, such as {"eip1559_pricing": true}' };
  if (MIN_BALANCE.slice('policies.'.length) in parsed)
    return { ok: false, problem: 'policies: set min_balance in its own field, in native units' };
  return { ok: true, policies: parsed };
}

/**
 * Why what would be sent of the policies cannot be (a whole number a browser holds inexactly), or
 * null. Only what is sent is looked at: a value read and left as it is, however large, is not sent.
 */
function inexactProblem(sent: Policies): string | null {
  const inexact = inexactNumber(sent);
  return inexact === null
    ? null
    : `policies holds a whole number beyond 2^53 − 1 (${BigInt(inexact)}), which a browser cannot send exactly: write an EVM amount as a string of digits ("${BigInt(inexact)}")`;
}

/** The stored policies but min_balance, which has a field of its own. */
function otherPolicies(relayer: Relayer): Policies {
  const { min_balance: _minBalance, ...rest } = (relayer.policies ?? {}) as Policies;
  return rest;
}

const policiesText = (policies: Policies) =>
  Object.keys(policies).length === 0 ? '' : JSON.stringify(policies, null, 2);

/** The stored min_balance in native units, as this browser read it ('' when none). */
function minBalanceText(relayer: Relayer): string {
  const value = ((relayer.policies ?? {}) as Policies).min_balance;
  const base =
    typeof value === 'string'
      ? value
      : typeof value === 'number' && Number.isInteger(value)
        ? BigInt(value).toString()
        : '';
  return base === '' ? '' : nativeAmount(base, relayer.network_type).replace(/,/g, '');
}

/** The min_balance typed in native units, in base units; null when empty. */
function minBalanceOf(
  text: string,
  networkType: NetworkType,
  symbol: string,
): { ok: true; base: string | null } | { ok: false; problem: string } {
  if (text.trim() === '') return { ok: true, base: null };
  const parsed = parseNative(text, networkType, symbol);
  return parsed.ok ? { ok: true, base: parsed.base } : { ok: false, problem: parsed.problem };
}

function MinBalanceField({
  id,
  value,
  onInput,
  networkType,
  symbol,
  errors,
  kept,
}: {
  id: string;
  value: string;
  onInput: (text: string) => void;
  networkType: NetworkType;
  symbol: string;
  errors: FieldErrors;
  kept?: boolean;
}) {
  const parsed = minBalanceOf(value, networkType, symbol);
  const note =
    value.trim() === ''
      ? `In ${symbol}: its health check disables it below this balance. Empty: no minimum.`
      : parsed.ok
        ? `Sends ${parsed.base} ${BASE_UNIT[networkType]}.`
        : parsed.problem;
  return (
    <Field
      id={id}
      label={`Minimum balance (${symbol})`}
      help={`${note}${kept ? ' Left as it is, the stored value is kept, every digit.' : ''}`}
      error={errors.of(MIN_BALANCE)}
    >
      {(props) => (
        <input
          {...props}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          onInput={(event) => onInput(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

function PoliciesField({
  id,
  value,
  onInput,
  errors,
}: {
  id: string;
  value: string;
  onInput: (text: string) => void;
  errors: FieldErrors;
}) {
  return (
    <Field
      id={id}
      label="Policies (JSON)"
      help='The policy of its network type (docs/api.md#relayers), such as {"eip1559_pricing": true}. Empty: none.'
      error={errors.of('policies')}
    >
      {(props) => (
        <textarea
          {...props}
          rows={4}
          spellcheck={false}
          value={value}
          onInput={(event) => onInput(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** A target's id, with the first targets as suggestions when the key may list them. */
function NotificationField({
  id,
  value,
  onChange,
  errors,
}: {
  id: string;
  value: string;
  onChange: (id: string) => void;
  errors: FieldErrors;
}) {
  const [load] = useLoad(
    () =>
      can('notifications:read')
        ? readPage(api.GET('/api/v1/notifications', { params: { query: { page: 1, per_page: CHOICES } } }))
        : Promise.resolve(null),
    [],
  );
  const targets = load.state === 'ready' && load.data !== null ? load.data.items.map((n) => n.id) : null;
  return (
    <Field
      id={id}
      label="Notification target"
      help="The id of the target it reports its events to (empty: none); other targets may hear it through their subscriptions."
      error={errors.of('notification_id')}
    >
      {(props) => (
        <>
          <input
            {...props}
            type="text"
            spellcheck={false}
            placeholder="None"
            list={targets === null ? undefined : `${id}-choices`}
            value={value}
            onInput={(event) => onChange(event.currentTarget.value.trim())}
          />
          {targets !== null && (
            <datalist id={`${id}-choices`}>
              {targets.map((target) => (
                <option value={target} key={target} />
              ))}
            </datalist>
          )}
        </>
      )}
    </Field>
  );
}

/**
 * Create a relayer, folded: its form (and the lists it suggests from) is drawn, and read, only once
 * opened, so that the relayers page still costs its requests alone (docs/console.md#34-one-request-a-page-search-and-order).
 */
export function RelayerCreate() {
  const [open, setOpen] = useState(false);
  return (
    <details class="panel create" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Create a relayer</summary>
      {open && <RelayerCreateForm />}
    </details>
  );
}

/** POST /api/v1/relayers: every field of a new relayer, each refusal beside its field. */
function RelayerCreateForm() {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [type, setType] = useState<NetworkType>('evm');
  const [network, setNetwork] = useState('');
  const [signer, setSigner] = useState('');
  const [paused, setPaused] = useState(false);
  const [notification, setNotification] = useState('');
  const [policies, setPolicies] = useState('');
  const [minBalance, setMinBalance] = useState('');
  const errors = useFieldErrors([
    'id',
    'name',
    'network_type',
    'network',
    'signer_id',
    'paused',
    'notification_id',
    'policies',
    MIN_BALANCE,
  ]);
  const [outcome, busy, act] = useAction();
  const symbolOf = useSymbols();
  const symbol = network === '' ? DEFAULT_SYMBOL[type] : symbolOf(type, network);
  const [networks] = useLoad(() => (can('networks:read') ? readNetworks() : Promise.resolve(null)), []);
  const [signers] = useLoad(
    () =>
      can('signers:read')
        ? readPage(api.GET('/api/v1/signers', { params: { query: { page: 1, per_page: CHOICES } } }))
        : Promise.resolve(null),
    [],
  );
  const names =
    networks.state === 'ready' && networks.data !== null
      ? [...new Set(networks.data.filter((n) => n.network_type === type).map((n) => n.name))].sort()
      : null;
  const signerChoices =
    signers.state === 'ready' && signers.data !== null
      ? signers.data.items.filter((s) => s.addresses[type] !== undefined)
      : null;
  const submit = async (event: Event) => {
    event.preventDefault();
    let created: Relayer | null = null;
    await act(async () => {
      const typed = parsePolicies(policies);
      const min = minBalanceOf(minBalance, type, symbol);
      const problems: Record<string, string> = {};
      if (!typed.ok) problems.policies = typed.problem;
      if (!min.ok) problems[MIN_BALANCE] = min.problem;
      if (!typed.ok || !min.ok) return errors.refuse(problems);
      const inexact = inexactProblem(typed.policies);
      if (inexact !== null) return errors.refuse({ policies: inexact });
      const all: Policies = { ...typed.policies, ...(min.base === null ? {} : { min_balance: min.base }) };
      created = await errors.guard(() =>
        read(
          api.POST('/api/v1/relayers', {
            body: {
              ...(id.trim() === '' ? {} : { id: id.trim() }),
              name,
              network_type: type,
              network,
              signer_id: signer,
              paused,
              ...(notification === '' ? {} : { notification_id: notification }),
              ...(Object.keys(all).length === 0 ? {} : { policies: all }),
            },
          }),
        ),
      );
    }, 'Created.');
    const made = created as Relayer | null;
    if (made !== null) navigate(['relayers', made.id]);
  };
  return (
    <form class="edit-form" aria-label="Create a relayer" onSubmit={(event) => void submit(event)}>
      <NewIdField id="new-relayer-id" value={id} onValue={setId} error={errors.of('id')} />
      <Field id="new-relayer-name" label="Name" error={errors.of('name')}>
        {(props) => (
          <input {...props} type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        )}
      </Field>
      <Field id="new-relayer-type" label="Network type" error={errors.of('network_type')}>
        {(props) => (
          <select
            {...props}
            value={type}
            onChange={(e) => {
              setType(NETWORK_TYPES.find((t) => t === e.currentTarget.value) ?? 'evm');
              // A network of another type is not among the new type's choices.
              setNetwork('');
              setSigner('');
            }}
          >
            {NETWORK_TYPES.map((t) => (
              <option value={t} key={t}>
                {t}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="new-relayer-network" label="Network" error={errors.of('network')}>
        {(props) =>
          names === null ? (
            <input
              {...props}
              type="text"
              value={network}
              onInput={(e) => setNetwork(e.currentTarget.value.trim())}
            />
          ) : (
            <select {...props} value={network} onChange={(e) => setNetwork(e.currentTarget.value)}>
              <option value="">Choose a {type} network</option>
              {names.map((n) => (
                <option value={n} key={n}>
                  {n}
                </option>
              ))}
            </select>
          )
        }
      </Field>
      <Field
        id="new-relayer-signer"
        label="Signer"
        help="Its id. Its key gives the relayer its address; a signer serves one relayer per network."
        error={errors.of('signer_id')}
      >
        {(props) => (
          <>
            <input
              {...props}
              type="text"
              spellcheck={false}
              list={signerChoices === null ? undefined : 'new-relayer-signer-choices'}
              value={signer}
              onInput={(e) => setSigner(e.currentTarget.value.trim())}
            />
            {signerChoices !== null && (
              <datalist id="new-relayer-signer-choices">
                {signerChoices.map((s) => (
                  <option value={s.id} key={s.id}>
                    {s.addresses[type]}
                  </option>
                ))}
              </datalist>
            )}
          </>
        )}
      </Field>
      <NotificationField
        id="new-relayer-notification"
        value={notification}
        onChange={setNotification}
        errors={errors}
      />
      <div class="field">
        <label class="check">
          <input
            type="checkbox"
            checked={paused}
            onChange={(e) => setPaused(e.currentTarget.checked)}
            {...controlProps('new-relayer-paused', errors.of('paused'), false)}
          />
          Paused: it takes no work until resumed
        </label>
        <FieldError id="new-relayer-paused" error={errors.of('paused')} />
      </div>
      <PoliciesField id="new-relayer-policies" value={policies} onInput={setPolicies} errors={errors} />
      <MinBalanceField
        id="new-relayer-min-balance"
        value={minBalance}
        onInput={setMinBalance}
        networkType={type}
        symbol={symbol}
        errors={errors}
      />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Create relayer
        </button>
      </div>
      <OutcomeText outcome={outcome?.kind === 'error' ? outcome : null} />
    </form>
  );
}

const EDIT_FIELDS = [
  'name',
  'paused',
  'notification_id',
  'policies',
  MIN_BALANCE,
  ...rpcPaths('custom_rpc_urls'),
];

/**
 * PATCH /api/v1/relayers/{id} from the relayer as this form read it: only what changed is sent, as a
 * merge patch, with If-Match its ETag; a 412 says it changed meanwhile and offers to read it again.
 * Pausing asks first.
 */
export function RelayerEdit({
  read: snapshot,
  symbol,
  onReload,
  onSaved,
  onCancel,
}: {
  read: TaggedRelayer;
  symbol: string;
  /** Reads the relayer again: the form starts over from what it reads. */
  onReload: () => Promise<void>;
  onSaved: () => Promise<void>;
  onCancel: () => void;
}) {
  const relayer = snapshot.data;
  const [name, setName] = useState(relayer.name);
  const [paused, setPaused] = useState(relayer.paused);
  const [notification, setNotification] = useState(relayer.notification_id ?? '');
  const readRows = rpcRows(relayer.custom_rpc_urls);
  const [rows, setRows] = useState<RpcRow[]>(readRows);
  const initialPolicies = policiesText(otherPolicies(relayer));
  const [policies, setPolicies] = useState(initialPolicies);
  const initialMin = minBalanceText(relayer);
  const [minBalance, setMinBalance] = useState(initialMin);
  const errors = useFieldErrors(EDIT_FIELDS);
  const [outcome, busy, act] = useAction();
  const [stale, setStale] = useState(false);
  const [asking, setAsking] = useState<Schemas['UpdateRelayerDto'] | null>(null);
  const idOf = (field: string) => `edit-${relayer.id}-${field}`;
  const saveButton = useRef<HTMLButtonElement>(null);

  /** The merge patch of what the form changed, or the problems that keep it from being sent. */
  const patchOf = (): Schemas['UpdateRelayerDto'] => {
    const problems: Record<string, string> = {};
    const patch: Schemas['UpdateRelayerDto'] = {};
    if (name !== relayer.name) patch.name = name;
    if (paused !== relayer.paused) patch.paused = paused;
    if (notification !== (relayer.notification_id ?? ''))
      patch.notification_id = notification === '' ? null : notification;
    if (!same(rows, readRows)) {
      const urls = rpcBody(
        rows,
        readRows.map((r) => r.url),
        'custom_rpc_urls',
      );
      if (urls.ok) patch.custom_rpc_urls = urls.urls.length === 0 ? null : urls.urls;
      else Object.assign(problems, urls.problems);
    }
    let policyPatch: Policies = {};
    if (policies !== initialPolicies) {
      const typed = parsePolicies(policies);
      if (typed.ok) policyPatch = mergePatch(otherPolicies(relayer), typed.policies);
      const problem = typed.ok ? inexactProblem(policyPatch) : typed.problem;
      if (problem !== null) problems.policies = problem;
    }
    if (minBalance !== initialMin) {
      const min = minBalanceOf(minBalance, relayer.network_type, symbol);
      if (min.ok) policyPatch.min_balance = min.base;
      else problems[MIN_BALANCE] = min.problem;
    }
    if (Object.keys(problems).length > 0) errors.refuse(problems);
    if (Object.keys(policyPatch).length > 0) patch.policies = policyPatch;
    return patch;
  };

  const write = async (patch: Schemas['UpdateRelayerDto']) => {
    try {
      await errors.guard(() =>
        readWithTag(
          api.PATCH('/api/v1/relayers/{relayer_id}', {
            params: {
              path: { relayer_id: relayer.id },
              header: snapshot.etag === null ? undefined : { 'If-Match': snapshot.etag },
            },
            body: patch,
          }),
        ),
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        setStale(true);
        throw new ApiError(
          412,
          'Nothing saved: the relayer was changed elsewhere since this form read it (412 Precondition Failed). Read it again, then make your change again.',
        );
      }
      throw error;
    }
    await onSaved();
  };

  const submit = (event: Event) => {
    event.preventDefault();
    setStale(false);
    void act(async () => {
      const patch = patchOf();
      // Pausing asks first: the dialog sends it.
      if (patch.paused === true) setAsking(patch);
      else await write(patch);
    }, 'Saved.');
  };

  return (
    <form class="edit-form" aria-label={`Edit relayer ${relayer.name}`} onSubmit={submit}>
      <h3>Edit</h3>
      <Field id={idOf('name')} label="Name" error={errors.of('name')}>
        {(props) => (
          <input {...props} type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        )}
      </Field>
      <div class="field">
        <label class="check">
          <input
            type="checkbox"
            checked={paused}
            onChange={(e) => setPaused(e.currentTarget.checked)}
            {...controlProps(idOf('paused'), errors.of('paused'), false)}
          />
          Paused: it takes no work until resumed
        </label>
        <FieldError id={idOf('paused')} error={errors.of('paused')} />
      </div>
      <NotificationField
        id={idOf('notification')}
        value={notification}
        onChange={setNotification}
        errors={errors}
      />
      <RpcUrlsField
        id={idOf('rpc')}
        legend="Custom RPC URLs"
        path="custom_rpc_urls"
        rows={rows}
        onRows={setRows}
        errors={errors}
        empty="None: it uses its network's RPC URLs."
      />
      <PoliciesField id={idOf('policies')} value={policies} onInput={setPolicies} errors={errors} />
      <MinBalanceField
        id={idOf('min-balance')}
        value={minBalance}
        onInput={setMinBalance}
        networkType={relayer.network_type}
        symbol={symbol}
        errors={errors}
        kept={initialMin !== ''}
      />
      <p class="help">
        Only what you change is sent, and only if nobody changed the relayer since this form read it.
      </p>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy} ref={saveButton}>
          Save
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        {stale && (
          <button type="button" onClick={() => void onReload()}>
            Read it again
          </button>
        )}
      </div>
      <OutcomeText outcome={outcome?.kind === 'error' ? outcome : null} />
      {asking !== null && (
        <ConfirmDialog
          title={`Pause relayer ${relayer.name}?`}
          confirm={`Save and pause ${relayer.name}`}
          onConfirm={() => act(() => write(asking), 'Saved.')}
          onClose={() => setAsking(null)}
          opener={saveButton}
        >
          <p>{pauseEffect(relayer)}</p>
        </ConfirmDialog>
      )}
    </form>
  );
}
