import { useEffect, useRef, useState } from 'preact/hooks';
import { api, read, readPage, type Schemas } from '../api/client';
import { GRANTS } from '../api/grants';
import {
  Empty,
  Loaded,
  OutcomeText,
  Pager,
  PageTitle,
  Table,
  Time,
  useAction,
  useLoad,
  type Outcome,
} from '../components';
import { ConfirmDialog } from '../dialog';
import { controlProps, FieldError, useFieldErrors } from '../forms';
import { href, location, navigate } from '../router';
import { can, me, replaceStoredKey, type Me } from '../session';

type ApiKey = Schemas['ApiKeyResponse'];
type Grant = Schemas['CreateApiKeyDto']['permissions'][number];

const PER_PAGE = 25;
/** docs/reference/keys-and-audit.md#42-rotation: a week at most. */
const MAX_OVERLAP_SECONDS = 604_800;
/** The fields of the create form, as the API's 400 names them. */
const KEY_FIELDS = ['name', 'permissions', 'relayer_ids', 'allowed_cidrs', 'expires_at'];
/** What the rotate form offers first: an hour for the key's clients to take the new secret. */
const DEFAULT_OVERLAP_SECONDS = 3600;

/**
 * The service's permissions, in its order: those of the OpenAPI document (CreateApiKeyDto.permissions),
 * written into api/grants.ts by `npm run console:types` with the types.
 */
const SERVICE_PERMISSIONS: readonly Exclude<Grant, '*'>[] = GRANTS.filter((grant) => grant !== '*');

/**
 * What the signed-in key may give a new key (docs/reference/hardening.md#11-a-key-grants-only-what-it-holds):
 * what it holds, in the service's order; a `*` key every permission and `*`.
 */
export function grantable(held: readonly string[]): string[] {
  const all: readonly string[] = SERVICE_PERMISSIONS;
  if (held.includes('*')) return [...all, '*'];
  return [...all.filter((p) => held.includes(p)), ...held.filter((p) => !all.includes(p))];
}

/**
 * Why the signed-in key may, or may not, rotate and revoke a key, as the API decides it
 * (docs/reference/keys-and-audit.md#44-authority-over-keys-comes-from-creating-them): the
 * administrator every key; a key itself and the keys it created, directly or through keys it created.
 * Which key created which is read from `created_by_key_id`, up the keys of the page shown (`byId`):
 * where the chain leaves them, the console cannot tell, and offers nothing.
 */
type Authority = 'admin' | 'self' | 'made' | 'by-admin' | 'by-other' | 'unknown';

function authorityOver(principal: Me, key: ApiKey, byId: ReadonlyMap<string, ApiKey>): Authority {
  if (principal.type === 'admin') return 'admin';
  if (principal.id === key.id) return 'self';
  if (key.created_by_key_id === null) return 'by-admin';
  const seen = new Set<string>([key.id]);
  let creator: string | null = key.created_by_key_id;
  while (creator !== null) {
    if (creator === principal.id) return 'made';
    const next = byId.get(creator);
    // Not on this page (or a loop, which the API never makes): who made it is not known here.
    if (next === undefined || seen.has(creator)) return 'unknown';
    seen.add(creator);
    creator = next.created_by_key_id;
  }
  return 'by-other';
}

/** The keys of a page, each with the signed-in key's authority over it. */
function withAuthority(
  principal: Me,
  items: readonly ApiKey[],
): Array<{ key: ApiKey; authority: Authority }> {
  const byId = new Map(items.map((key) => [key.id, key]));
  return items.map((key) => ({ key, authority: authorityOver(principal, key, byId) }));
}

/** What a row says instead of Rotate and Revoke; null where it offers them. */
function notOffered(authority: Authority): string | null {
  switch (authority) {
    case 'by-admin':
      return 'Made by the administrator: only the administrator or the key itself may rotate or revoke it.';
    case 'by-other':
      return 'Made by another key: only the key that made it, the keys that made that one, or the administrator may rotate or revoke it.';
    case 'unknown':
      return 'Made by a key not on this page: the console cannot tell whether this key may rotate or revoke it.';
    case 'admin':
    case 'self':
    case 'made':
      return null;
  }
}

/** The non-empty lines of a text area, trimmed. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** A secret shown once: after create or rotate, until Done. */
interface NewSecret {
  name: string;
  key: string;
  rotated: boolean;
  self: boolean;
}

/** The keys (GET /api/v1/api-keys, a page at a time), create, rotate and revoke. */
export function ApiKeysPage() {
  const principal = me.value;
  const pageNumber = Number(location.value.query.get('page'));
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 ? pageNumber : 1;
  const [load, reload] = useLoad(
    () => readPage(api.GET('/api/v1/api-keys', { params: { query: { page, per_page: PER_PAGE } } })),
    [page],
  );
  // Held here only, and dropped on Done: never in a signal or in storage.
  const [secret, setSecret] = useState<NewSecret | null>(null);
  const [notice, setNotice] = useState<Outcome | null>(null);
  if (principal === null) return null;
  const show = (shown: NewSecret) => {
    setNotice(null);
    setSecret(shown);
    reload();
  };
  return (
    <>
      <PageTitle>API keys</PageTitle>
      {secret && (
        <SecretPanel
          secret={secret}
          onDone={() => {
            setSecret(null);
            document.querySelector<HTMLElement>('main h1')?.focus();
          }}
        />
      )}
      <OutcomeText outcome={notice} />
      <Loaded load={load} what="API keys" retry={reload}>
        {({ items, pagination }) =>
          items.length === 0 ? (
            page > 1 ? (
              <Empty>
                No keys on page {page}. <a href={href(['api-keys'])}>Go to the first page</a>
              </Empty>
            ) : (
              <Empty>
                No API keys yet: only the service's API_KEY can sign in. Create a key below for each client,
                with only the permissions it needs.
              </Empty>
            )
          ) : (
            <>
              <Table
                caption="API keys"
                head={[
                  'Key',
                  'Prefix',
                  'Permissions',
                  'Relayers',
                  'Allowed from',
                  'Created',
                  'Expires',
                  'Last used',
                  'Actions',
                ]}
              >
                {withAuthority(principal, items).map(({ key, authority }) => (
                  <KeyRow
                    apiKey={key}
                    authority={authority}
                    key={key.id}
                    onRotated={show}
                    onRevoked={(text) => {
                      setSecret(null);
                      setNotice({ kind: 'ok', text });
                      reload();
                    }}
                  />
                ))}
              </Table>
              <Pager
                pagination={pagination}
                label="API keys"
                onPage={(next) => navigate(['api-keys'], { page: next })}
              />
            </>
          )
        }
      </Loaded>
      <CreateKey principal={principal} onCreated={show} />
    </>
  );
}

/** The new secret, once: copy it, then Done forgets it. */
function SecretPanel({ secret, onDone }: { secret: NewSecret; onDone: () => void }) {
  const title = useRef<HTMLHeadingElement>(null);
  const text = useRef<HTMLElement>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  useEffect(() => {
    setOutcome(null);
    title.current?.focus();
  }, [secret]);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(secret.key);
      setOutcome({ kind: 'ok', text: 'Copied to the clipboard.' });
    } catch {
      const selection = window.getSelection();
      if (text.current && selection) {
        const range = document.createRange();
        range.selectNodeContents(text.current);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      setOutcome({
        kind: 'ok',
        text: 'This browser did not let the console copy it: the key is selected, press Ctrl+C (⌘C on a Mac).',
      });
    }
  };
  return (
    <section class="panel new-secret" aria-labelledby="new-secret-title">
      <h2 id="new-secret-title" tabIndex={-1} ref={title}>
        {secret.rotated ? `New secret for ${secret.name}` : `New key ${secret.name}`}
      </h2>
      <p class="warning">
        Copy it now: it is not shown again. The service keeps only its digest, and this page forgets it when
        you press Done.
      </p>
      {secret.self && (
        <p>
          This is the key this console is signed in with: the console now uses the new secret in this tab.
        </p>
      )}
      <p>
        <code class="secret" ref={text}>
          {secret.key}
        </code>
      </p>
      <div class="actions">
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" class="primary" onClick={onDone}>
          Done
        </button>
      </div>
      <OutcomeText outcome={outcome} />
    </section>
  );
}

function KeyRow({
  apiKey,
  authority,
  onRotated,
  onRevoked,
}: {
  apiKey: ApiKey;
  authority: Authority;
  onRotated: (secret: NewSecret) => void;
  onRevoked: (message: string) => void;
}) {
  const [mode, setMode] = useState<'idle' | 'rotate' | 'revoke'>('idle');
  const self = authority === 'self';
  const refusal = notOffered(authority);
  // Rotate: a key it may change, itself even without a permission. Revoke: the route needs
  // api_keys:manage, for itself too.
  const revokes = refusal === null && (!self || can('api_keys:manage'));
  const nameId = `key-${apiKey.id}`;
  const [outcome, busy, act] = useAction();
  const revoke = async () => {
    let message = '';
    const ok = await act(async () => {
      message = await read<string>(
        api.DELETE('/api/v1/api-keys/{api_key_id}', { params: { path: { api_key_id: apiKey.id } } }),
      );
    }, 'Revoked.');
    if (ok) onRevoked(message);
  };
  return (
    <tr>
      <th scope="row">
        <span id={nameId}>{apiKey.name}</span>
        {self && <span class="badge ok">this console</span>}
        <div class="muted id">{apiKey.id}</div>
      </th>
      <td>
        <code class="key-prefix">{apiKey.key_prefix}</code>
      </td>
      <td>
        <List items={apiKey.permissions} none="none" />
      </td>
      <td>
        <List items={apiKey.relayer_ids} none="All relayers" />
      </td>
      <td>
        <List items={apiKey.allowed_cidrs} none="Anywhere" />
      </td>
      <td>
        <Time value={apiKey.created_at} />
      </td>
      <td>
        <Time value={apiKey.expires_at} />
      </td>
      <td>
        <Time value={apiKey.last_used_at} />
      </td>
      <td class="key-actions">
        {(mode === 'idle' || mode === 'revoke') && refusal === null && (
          <div class="actions">
            <button type="button" aria-describedby={nameId} onClick={() => setMode('rotate')}>
              Rotate
            </button>
            {revokes && (
              <button
                type="button"
                class="danger"
                aria-describedby={nameId}
                disabled={busy}
                onClick={() => setMode('revoke')}
              >
                Revoke
              </button>
            )}
          </div>
        )}
        {mode === 'idle' && refusal !== null && <span class="muted">{refusal}</span>}
        {mode === 'rotate' && (
          <RotateForm
            apiKey={apiKey}
            self={self}
            onCancel={() => setMode('idle')}
            onRotated={(secret) => {
              setMode('idle');
              onRotated(secret);
            }}
          />
        )}
        {mode === 'revoke' && (
          <ConfirmDialog
            title={`Revoke key ${apiKey.name}?`}
            confirm={`Revoke ${apiKey.name}`}
            onConfirm={revoke}
            onClose={() => setMode('idle')}
          >
            <p>
              {self
                ? 'This is the key this console is signed in with: revoking it signs you out. '
                : `Every client using ${apiKey.key_prefix}… is refused from now on. `}
              The keys it created are revoked with it. This cannot be undone.
            </p>
          </ConfirmDialog>
        )}
        <OutcomeText outcome={outcome?.kind === 'error' ? outcome : null} />
      </td>
    </tr>
  );
}

function List({ items, none }: { items: readonly string[] | undefined; none: string }) {
  if (!items || items.length === 0) return <span class="muted">{none}</span>;
  return (
    <ul class="plain-list">
      {items.map((item) => (
        <li key={item}>
          <code>{item}</code>
        </li>
      ))}
    </ul>
  );
}

/** POST /api/v1/api-keys/{id}/rotate: the old secret works `overlap_seconds` longer. */
function RotateForm({
  apiKey,
  self,
  onCancel,
  onRotated,
}: {
  apiKey: ApiKey;
  self: boolean;
  onCancel: () => void;
  onRotated: (secret: NewSecret) => void;
}) {
  const [overlap, setOverlap] = useState(String(DEFAULT_OVERLAP_SECONDS));
  const [outcome, busy, act] = useAction();
  const [asking, setAsking] = useState(false);
  const errors = useFieldErrors(['overlap_seconds']);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  const id = `overlap-${apiKey.id}`;
  const seconds = overlap.trim() === '' ? 0 : Number(overlap);
  const submit = (event: Event) => {
    event.preventDefault();
    // Without an overlap the old secret stops at once: asked first.
    if (seconds === 0) setAsking(true);
    else void rotate();
  };
  const rotate = async () => {
    let rotated: Schemas['CreatedApiKeyResponse'] | null = null;
    const ok = await act(async () => {
      rotated = await errors.guard(() =>
        read(
          api.POST('/api/v1/api-keys/{api_key_id}/rotate', {
            params: { path: { api_key_id: apiKey.id } },
            body: { overlap_seconds: seconds },
          }),
        ),
      );
      // Before anything else asks the API: with no overlap the old secret already stopped.
      if (self) replaceStoredKey(rotated.key);
    }, 'Rotated.');
    const done = rotated as Schemas['CreatedApiKeyResponse'] | null;
    if (ok && done) onRotated({ name: done.name, key: done.key, rotated: true, self });
  };
  return (
    <form class="row-form" aria-label={`Rotate ${apiKey.name}`} onSubmit={submit}>
      <label for={id}>Old secret keeps working for (seconds)</label>
      <input
        id={id}
        ref={field}
        type="number"
        min={0}
        max={MAX_OVERLAP_SECONDS}
        step={1}
        inputMode="numeric"
        value={overlap}
        onInput={(event) => setOverlap(event.currentTarget.value)}
        aria-invalid={errors.of('overlap_seconds') !== null}
        aria-describedby={`${id}-help${errors.of('overlap_seconds') !== null ? ` ${id}-error` : ''}`}
      />
      <p id={`${id}-help`} class="help">
        3600 (an hour) gives its clients that long to take the new one; 0 stops it at once (a leaked key); at
        most {MAX_OVERLAP_SECONDS} (a week).
        {self &&
          ' This is the key this console is signed in with: the console switches to the new secret, so it stays signed in.'}
      </p>
      <FieldError id={id} error={errors.of('overlap_seconds')} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Rotate {apiKey.name}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <OutcomeText outcome={outcome?.kind === 'error' ? outcome : null} />
      {asking && (
        <ConfirmDialog
          title={`Rotate key ${apiKey.name} without overlap?`}
          confirm={`Rotate ${apiKey.name} now`}
          onConfirm={rotate}
          onClose={() => setAsking(false)}
        >
          <p>
            Its old secret stops working at once: every client still using it is refused (401) until it has
            the new one.
            {self && ' This console switches to the new secret, so it stays signed in.'}
          </p>
        </ConfirmDialog>
      )}
    </form>
  );
}

/** The relayers the signed-in key may read (the first 100), to add to a scope. */
function RelayerPicker({ onPick }: { onPick: (id: string) => void }) {
  const [load] = useLoad(
    () =>
      can('relayers:read')
        ? readPage(api.GET('/api/v1/relayers', { params: { query: { page: 1, per_page: 100 } } }))
        : Promise.resolve(null),
    [],
  );
  const [picked, setPicked] = useState('');
  if (load.state !== 'ready' || load.data === null || load.data.items.length === 0) return null;
  const { items, pagination } = load.data;
  return (
    <div class="picker">
      <label for="scope-pick">Add a relayer</label>
      <div class="actions">
        <select id="scope-pick" value={picked} onChange={(event) => setPicked(event.currentTarget.value)}>
          <option value="">Choose a relayer</option>
          {items.map((relayer) => (
            <option value={relayer.id} key={relayer.id}>
              {relayer.name} ({relayer.id})
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={picked === ''}
          onClick={() => {
            onPick(picked);
            setPicked('');
          }}
        >
          Add
        </button>
      </div>
      {pagination.total_items > items.length && (
        <p class="help">The first {items.length} relayers are listed: type the others' ids.</p>
      )}
    </div>
  );
}

/** POST /api/v1/api-keys: only what the signed-in key holds, inside its relayer scope. */
function CreateKey({ principal, onCreated }: { principal: Me; onCreated: (secret: NewSecret) => void }) {
  const offered = grantable(principal.permissions);
  const ownScope = principal.relayer_ids;
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [everyRelayer, setEveryRelayer] = useState(ownScope === undefined);
  const [scope, setScope] = useState(ownScope?.join('\n') ?? '');
  const [cidrs, setCidrs] = useState('');
  const [expires, setExpires] = useState('');
  const [outcome, busy, act] = useAction();
  const errors = useFieldErrors(KEY_FIELDS);
  const toggle = (permission: string, on: boolean) =>
    setChosen((current) =>
      on
        ? offered.filter((p) => p === permission || current.includes(p))
        : current.filter((p) => p !== permission),
    );
  const submit = async (event: Event) => {
    event.preventDefault();
    const allowed = lines(cidrs);
    const when = expires === '' ? null : new Date(expires);
    const body: Schemas['CreateApiKeyDto'] = {
      name,
      permissions: chosen as Grant[],
      ...(everyRelayer ? {} : { relayer_ids: lines(scope) }),
      ...(allowed.length > 0 ? { allowed_cidrs: allowed } : {}),
      ...(when === null ? {} : { expires_at: Number.isNaN(when.getTime()) ? expires : when.toISOString() }),
    };
    let created: Schemas['CreatedApiKeyResponse'] | null = null;
    const ok = await act(async () => {
      created = await errors.guard(() => read(api.POST('/api/v1/api-keys', { body })));
    }, `Created ${name}.`);
    const done = created as Schemas['CreatedApiKeyResponse'] | null;
    if (ok && done) {
      setName('');
      setChosen([]);
      setCidrs('');
      setExpires('');
      onCreated({ name: done.name, key: done.key, rotated: false, self: false });
    }
  };
  return (
    <section class="panel key-create" aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      <form class="key-form" onSubmit={(event) => void submit(event)}>
        <label>
          Name
          <input
            type="text"
            name="name"
            maxLength={255}
            required
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
            {...controlProps('key-name', errors.of('name'), false)}
          />
        </label>
        <FieldError id="key-name" error={errors.of('name')} />
        <fieldset>
          <legend>Permissions</legend>
          <p class="help" id="permissions-help">
            {principal.permissions.includes('*')
              ? 'This key holds every permission: it may give any of them, and * (every permission, present and future).'
              : 'Only the permissions this key holds can be given.'}
          </p>
          <div class="checks">
            {offered.map((permission) => (
              <label class="check" key={permission}>
                <input
                  type="checkbox"
                  name="permissions"
                  value={permission}
                  checked={chosen.includes(permission)}
                  onChange={(event) => toggle(permission, event.currentTarget.checked)}
                />
                <code>{permission}</code>
              </label>
            ))}
          </div>
          <FieldError id="key-permissions" error={errors.of('permissions')} />
        </fieldset>
        <fieldset>
          <legend>Relayers</legend>
          {ownScope === undefined ? (
            <div class="checks">
              <label class="check">
                <input
                  type="radio"
                  name="scope"
                  checked={everyRelayer}
                  onChange={() => setEveryRelayer(true)}
                />
                All relayers
              </label>
              <label class="check">
                <input
                  type="radio"
                  name="scope"
                  checked={!everyRelayer}
                  onChange={() => setEveryRelayer(false)}
                />
                Only these
              </label>
            </div>
          ) : (
            <p class="help">
              This key sees only {ownScope.join(', ')}: the new key's relayers must be inside them.
            </p>
          )}
          {!everyRelayer && (
            <>
              <label for="scope-ids">Relayer ids and prefixes ending in *, one per line</label>
              <textarea
                {...controlProps('scope-ids', errors.of('relayer_ids'), false)}
                rows={4}
                value={scope}
                spellcheck={false}
                onInput={(event) => setScope(event.currentTarget.value)}
              />
              <RelayerPicker
                onPick={(id) =>
                  setScope((current) =>
                    lines(current).includes(id) ? current : [...lines(current), id].join('\n'),
                  )
                }
              />
            </>
          )}
          <FieldError id="scope-ids" error={errors.of('relayer_ids')} />
        </fieldset>
        <label>
          Allowed from (optional)
          <textarea
            rows={2}
            value={cidrs}
            spellcheck={false}
            {...controlProps('cidrs', errors.of('allowed_cidrs'), true)}
            onInput={(event) => setCidrs(event.currentTarget.value)}
          />
        </label>
        <p class="help" id="cidrs-help">
          IPv4 or IPv6 CIDRs or addresses, one per line (203.0.113.0/24). Empty: the key works from anywhere.
        </p>
        <FieldError id="cidrs" error={errors.of('allowed_cidrs')} />
        <label>
          Expires (optional, your local time)
          <input
            type="datetime-local"
            value={expires}
            {...controlProps('expires', errors.of('expires_at'), true)}
            onInput={(event) => setExpires(event.currentTarget.value)}
          />
        </label>
        <p class="help" id="expires-help">
          Empty: never, unless this key expires; a key never outlives the key that creates it.
        </p>
        <FieldError id="expires" error={errors.of('expires_at')} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Create key
          </button>
        </div>
        <OutcomeText outcome={outcome?.kind === 'error' ? outcome : null} />
      </form>
    </section>
  );
}
