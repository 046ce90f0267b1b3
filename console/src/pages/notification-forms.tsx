import { useState } from 'preact/hooks';
import { api, read, readPage, type Schemas } from '../api/client';
import { OutcomeText, useAction } from '../components';
import { ConfirmDialog } from '../dialog';
import { Field, FieldError, controlProps, useFieldErrors } from '../forms';
import { navigate } from '../router';

type Notification = Schemas['NotificationResponse'];
type Subscription = Schemas['SubscriptionResponse'];
type EventName = NonNullable<Subscription['events']>[number];

/** The event names of docs/reference/webhooks.md#62-what-a-subscription-says, in its order. */
export const EVENTS: readonly EventName[] = [
  'relayer_created',
  'relayer_updated',
  'relayer_deleted',
  'relayer_state_update',
  'notification_test',
  'relayer_low_balance',
  'relayer_balance_restored',
];

/** The non-empty lines of a text area, trimmed. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const SIGNING_KEY_HELP = 'At least 32 characters; never shown again. It signs every delivery (X-Signature).';

/** POST /api/v1/notifications: a new webhook target; its page opens once made. */
export function TargetCreate() {
  const [id, setId] = useState('');
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const errors = useFieldErrors(['id', 'url', 'signing_key']);
  const [outcome, busy, act] = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    let made: Notification | null = null;
    await act(async () => {
      made = await errors.guard(() =>
        read(
          api.POST('/api/v1/notifications', {
            body: {
              type: 'webhook',
              url: url.trim(),
              ...(id.trim() === '' ? {} : { id: id.trim() }),
              ...(key === '' ? {} : { signing_key: key }),
            },
          }),
        ),
      );
    }, 'Created.');
    const created = made as Notification | null;
    if (created !== null) navigate(['notifications', created.id]);
  };
  return (
    <details class="panel create">
      <summary>Create a target</summary>
      <form class="edit-form" aria-label="Create a target" onSubmit={(event) => void submit(event)}>
        <Field
          id="new-target-id"
          label="Id (optional)"
          help="1 to 36 letters, digits, - or _. Empty: the service makes a UUID."
          error={errors.of('id')}
        >
          {(props) => (
            <input
              {...props}
              type="text"
              spellcheck={false}
              value={id}
              onInput={(e) => setId(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field
          id="new-target-url"
          label="URL"
          help="Where its events are POSTed; the webhook URL policy applies (docs/configuration.md#the-url-policy)."
          error={errors.of('url')}
        >
          {(props) => (
            <input
              {...props}
              type="url"
              spellcheck={false}
              value={url}
              onInput={(e) => setUrl(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field
          id="new-target-key"
          label="Signing key (optional)"
          help={SIGNING_KEY_HELP}
          error={errors.of('signing_key')}
        >
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="new-password"
              value={key}
              onInput={(e) => setKey(e.currentTarget.value)}
            />
          )}
        </Field>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Create target
          </button>
        </div>
        <OutcomeText outcome={outcome?.kind === 'error' ? outcome : null} />
      </form>
    </details>
  );
}

type KeyChoice = 'keep' | 'set' | 'remove';

/**
 * PATCH /api/v1/notifications/{id}: its URL and its signing key (kept, replaced or removed: the key is
 * never shown), and DELETE after a confirmation.
 */
export function TargetEdit({ target, onChanged }: { target: Notification; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [url, setUrl] = useState(target.url);
  const [choice, setChoice] = useState<KeyChoice>('keep');
  const [key, setKey] = useState('');
  const errors = useFieldErrors(['url', 'signing_key']);
  const [outcome, busy, act] = useAction();
  const [deleting, setDeleting] = useState(false);
  const open = () => {
    setUrl(target.url);
    setChoice('keep');
    setKey('');
    errors.clear();
    setEditing(true);
  };
  const save = async (event: Event) => {
    event.preventDefault();
    const body: Schemas['UpdateNotificationDto'] = {
      ...(url.trim() === target.url ? {} : { url: url.trim() }),
      ...(choice === 'set' ? { signing_key: key } : choice === 'remove' ? { signing_key: '' } : {}),
    };
    const ok = await act(
      () =>
        errors.guard(() =>
          read(
            api.PATCH('/api/v1/notifications/{notification_id}', {
              params: { path: { notification_id: target.id } },
              body,
            }),
          ),
        ),
      'Saved.',
    );
    if (ok) {
      setEditing(false);
      onChanged();
    }
  };
  const remove = async () => {
    const ok = await act(
      () =>
        read<string>(
          api.DELETE('/api/v1/notifications/{notification_id}', {
            params: { path: { notification_id: target.id } },
          }),
        ),
      'Deleted.',
    );
    if (ok) navigate(['notifications']);
  };
  return (
    <>
      <div class="actions">
        <button type="button" disabled={busy || editing} onClick={open}>
          Edit
        </button>
        <button type="button" class="danger" disabled={busy} onClick={() => setDeleting(true)}>
          Delete
        </button>
      </div>
      {!editing && <OutcomeText outcome={outcome} />}
      {editing && (
        <form
          class="edit-form"
          aria-label={`Edit target ${target.id}`}
          onSubmit={(event) => void save(event)}
        >
          <Field id="target-url" label="URL" error={errors.of('url')}>
            {(props) => (
              <input
                {...props}
                type="url"
                spellcheck={false}
                value={url}
                onInput={(e) => setUrl(e.currentTarget.value)}
              />
            )}
          </Field>
          <fieldset>
            <legend>Signing key</legend>
            <div class="checks">
              <label class="check">
                <input
                  type="radio"
                  name="key"
                  checked={choice === 'keep'}
                  onChange={() => setChoice('keep')}
                />
                {target.has_signing_key ? 'Keep the current key' : 'No key'}
              </label>
              <label class="check">
                <input type="radio" name="key" checked={choice === 'set'} onChange={() => setChoice('set')} />
                {target.has_signing_key ? 'Replace it now' : 'Set a key'}
              </label>
              {target.has_signing_key && (
                <label class="check">
                  <input
                    type="radio"
                    name="key"
                    checked={choice === 'remove'}
                    onChange={() => setChoice('remove')}
                  />
                  Remove it: deliveries go unsigned
                </label>
              )}
            </div>
            {choice === 'set' && (
              <Field
                id="target-key"
                label="New signing key"
                help={SIGNING_KEY_HELP}
                error={errors.of('signing_key')}
              >
                {(props) => (
                  <input
                    {...props}
                    type="password"
                    autoComplete="new-password"
                    value={key}
                    onInput={(e) => setKey(e.currentTarget.value)}
                  />
                )}
              </Field>
            )}
            {choice !== 'set' && <FieldError id="target-key" error={errors.of('signing_key')} />}
            <p class="help">
              Replacing the key here ends any overlap at once; to keep the old key signing for a while, rotate
              it with POST .../signing-key (docs/webhooks.md).
            </p>
          </fieldset>
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>
              Save
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
          <OutcomeText outcome={outcome?.kind === 'error' ? outcome : null} />
        </form>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete target ${target.id}?`}
          confirm={`Delete ${target.id}`}
          onConfirm={remove}
          onClose={() => setDeleting(false)}
        >
          <p>
            Nothing more is sent to {target.url}. Its delivery log and its subscription are deleted with it,
            and its pending deliveries are never sent. A target that relayers name as their notification
            target cannot be deleted. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

type RelayerChoice = 'own' | 'every' | 'these';

/** PUT /api/v1/notifications/{id}/subscription: which events, and which relayers besides those naming it. */
export function SubscriptionForm({
  id,
  subscription,
  onDone,
  onCancel,
}: {
  id: string;
  subscription: Subscription;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [every, setEvery] = useState(subscription.events === null);
  const [events, setEvents] = useState<EventName[]>(subscription.events ?? []);
  const [relayers, setRelayers] = useState<RelayerChoice>(
    subscription.relayer_ids === null ? 'own' : subscription.relayer_ids[0] === '*' ? 'every' : 'these',
  );
  const [ids, setIds] = useState(
    subscription.relayer_ids === null || subscription.relayer_ids[0] === '*'
      ? ''
      : subscription.relayer_ids.join('\n'),
  );
  const errors = useFieldErrors(['events', 'relayer_ids']);
  const [outcome, busy, act] = useAction();
  const save = async (event: Event) => {
    event.preventDefault();
    const ok = await act(
      () =>
        errors.guard(() =>
          read(
            api.PUT('/api/v1/notifications/{notification_id}/subscription', {
              params: { path: { notification_id: id } },
              body: {
                events: every ? null : EVENTS.filter((name) => events.includes(name)),
                relayer_ids: relayers === 'own' ? null : relayers === 'every' ? ['*'] : lines(ids),
              },
            }),
          ),
        ),
      'Saved.',
    );
    if (ok) onDone();
  };
  return (
    <form class="edit-form" aria-label="Edit the subscription" onSubmit={(event) => void save(event)}>
      <fieldset {...controlProps('subscription-events', errors.of('events'), false)}>
        <legend>Events</legend>
        <div class="checks">
          <label class="check">
            <input type="radio" name="events" checked={every} onChange={() => setEvery(true)} />
            Every event
          </label>
          <label class="check">
            <input type="radio" name="events" checked={!every} onChange={() => setEvery(false)} />
            Only these
          </label>
        </div>
        {!every && (
          <div class="checks">
            {EVENTS.map((name) => (
              <label class="check" key={name}>
                <input
                  type="checkbox"
                  checked={events.includes(name)}
                  onChange={(e) =>
                    setEvents((current) =>
                      e.currentTarget.checked ? [...current, name] : current.filter((n) => n !== name),
                    )
                  }
                />
                <code>{name}</code>
              </label>
            ))}
          </div>
        )}
        <p class="help">notification_test is sent whatever is chosen.</p>
        <FieldError id="subscription-events" error={errors.of('events')} />
      </fieldset>
      <fieldset>
        <legend>Relayers</legend>
        <div class="checks">
          <label class="check">
            <input
              type="radio"
              name="relayers"
              checked={relayers === 'own'}
              onChange={() => setRelayers('own')}
            />
            Only those naming it as their notification target
          </label>
          <label class="check">
            <input
              type="radio"
              name="relayers"
              checked={relayers === 'every'}
              onChange={() => setRelayers('every')}
            />
            Every relayer
          </label>
          <label class="check">
            <input
              type="radio"
              name="relayers"
              checked={relayers === 'these'}
              onChange={() => setRelayers('these')}
            />
            These relayers too
          </label>
        </div>
        {relayers === 'these' && (
          <Field
            id="subscription-relayers"
            label="Relayer ids, one per line"
            help="Up to 1000; an id need not belong to a relayer yet."
            error={errors.of('relayer_ids')}
          >
            {(props) => (
              <textarea
                {...props}
                rows={4}
                spellcheck={false}
                value={ids}
                onInput={(e) => setIds(e.currentTarget.value)}
              />
            )}
          </Field>
        )}
        {relayers !== 'these' && <FieldError id="subscription-relayers" error={errors.of('relayer_ids')} />}
      </fieldset>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Save subscription
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <OutcomeText outcome={outcome?.kind === 'error' ? outcome : null} />
    </form>
  );
}

/** A replay's filters, as the form has them. */
export interface ReplayAsked {
  status: 'failed' | 'delivered';
  event?: string;
  since?: string;
  until?: string;
}

/** What the replay dialog says: how many, where, and what may follow. */
export interface ReplayPlan {
  count: number;
  title: string;
  /** The confirming button's words. */
  confirm: string;
  notes: string[];
}

/** One call queues at most this many (docs/reference/webhooks.md#71-queuing-a-targets-deliveries-again). */
const REPLAY_LIMIT = 10_000;
/** WEBHOOK_PAUSE_AFTER_FAILURES's default: that many failures in a row pause a target by itself. */
const SELF_PAUSE_DEFAULT = 50;

const count = (n: number) => n.toLocaleString('en-US');
const deliveries = (n: number) => `${count(n)} ${n === 1 ? 'delivery' : 'deliveries'}`;

/**
 * Counts what a replay would queue, from the delivery log's count of that status (one read), and
 * reads the target's last outcome (its stats): the count is exact without event or time filters (the
 * log cannot filter by them, so with them it is at most that), and the dialog warns when the receiver
 * is failing and the replay alone could pause the target by itself.
 */
export async function planReplay(
  target: Pick<Notification, 'id' | 'url'>,
  asked: ReplayAsked,
  paused: boolean,
): Promise<ReplayPlan> {
  const path = { notification_id: target.id };
  const [{ pagination }, stats] = await Promise.all([
    readPage(
      api.GET('/api/v1/notifications/{notification_id}/deliveries', {
        params: { path, query: { status: asked.status, page: 1, per_page: 1 } },
      }),
    ),
    read(
      api.GET('/api/v1/notifications/{notification_id}/stats', { params: { path, query: { window: '1h' } } }),
    ),
  ]);
  const total = pagination.total_items;
  const queued = Math.min(total, REPLAY_LIMIT);
  const filtered = asked.event !== undefined || asked.since !== undefined || asked.until !== undefined;
  const notes: string[] = [];
  if (filtered)
    notes.push(
      `${deliveries(total)} of this target ${total === 1 ? 'is' : 'are'} ${asked.status}; the event and times chosen may match fewer.`,
    );
  if (total > REPLAY_LIMIT)
    notes.push(
      `One replay queues the oldest ${count(REPLAY_LIMIT)}; the others wait for another replay once these are sent.`,
    );
  notes.push(
    'Each is sent again as it was first sent, with its event id, oldest first. Those replayed in the last hour are skipped.',
  );
  if (paused) notes.push('The target is paused: they wait, pending, until it is resumed.');
  const failingNow =
    stats.last_failed_at !== null &&
    (stats.last_delivered_at === null ||
      Date.parse(stats.last_failed_at) > Date.parse(stats.last_delivered_at));
  if (asked.status === 'failed' && failingNow && queued >= SELF_PAUSE_DEFAULT)
    notes.push(
      `Warning: its last delivery failed${stats.last_error ? ` (${stats.last_error})` : ''}. If the receiver still fails, ${SELF_PAUSE_DEFAULT} failures in a row (WEBHOOK_PAUSE_AFTER_FAILURES, ${SELF_PAUSE_DEFAULT} by default) pause the target by itself, and the rest wait.`,
    );
  return {
    count: queued,
    title: `Queue ${filtered ? 'at most ' : ''}${deliveries(queued)} to ${target.url}?`,
    confirm: `Queue ${filtered ? 'at most ' : ''}${deliveries(queued)}`,
    notes,
  };
}
