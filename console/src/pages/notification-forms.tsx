import { useState } from 'preact/hooks';
import { api, read, type Schemas } from '../api/client';
import { OutcomeText, useAction } from '../components';
import {
  EditAndDelete,
  Field,
  FieldError,
  NewIdField,
  controlProps,
  useFieldErrors,
  type FieldErrors,
} from '../forms';
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
export const lines = (text: string) =>
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
        <NewIdField id="new-target-id" value={id} onValue={setId} error={errors.of('id')} />
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
  const [url, setUrl] = useState(target.url);
  const [choice, setChoice] = useState<KeyChoice>('keep');
  const [key, setKey] = useState('');
  const errors = useFieldErrors(['url', 'signing_key']);
  const path = { params: { path: { notification_id: target.id } } };
  const open = () => {
    setUrl(target.url);
    setChoice('keep');
    setKey('');
    errors.clear();
  };
  const save = () => {
    const body: Schemas['UpdateNotificationDto'] = {
      ...(url.trim() === target.url ? {} : { url: url.trim() }),
      ...(choice === 'set' ? { signing_key: key } : choice === 'remove' ? { signing_key: '' } : {}),
    };
    return errors.guard(() => read(api.PATCH('/api/v1/notifications/{notification_id}', { ...path, body })));
  };
  return (
    <EditAndDelete
      what={`target ${target.id}`}
      id={target.id}
      onOpen={open}
      save={save}
      onSaved={onChanged}
      remove={() => read<string>(api.DELETE('/api/v1/notifications/{notification_id}', path))}
      onDeleted={() => navigate(['notifications'])}
      effect={`Nothing more is sent to ${target.url}. Its delivery log and its subscription are deleted with it, and its pending deliveries are never sent. A target that relayers name as their notification target cannot be deleted. This cannot be undone.`}
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
            <input type="radio" name="key" checked={choice === 'keep'} onChange={() => setChoice('keep')} />
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
          Replacing the key here ends any overlap at once; to keep the old key signing for a while, rotate it
          with POST .../signing-key (docs/webhooks.md).
        </p>
      </fieldset>
    </EditAndDelete>
  );
}

type RelayerChoice = 'own' | 'every' | 'these';

/** Which events and relayers a target or a channel hears, as a form holds them (HearingFields). */
export interface Hearing {
  /** Every event, or only `events`. */
  every: boolean;
  events: EventName[];
  relayers: RelayerChoice;
  /** The relayer ids of `these`, one per line. */
  ids: string;
}

/**
 * A subscription's or a channel's `events` and `relayer_ids` as a form holds them; `nullRelayers` is
 * what `relayer_ids: null` means: a target's own relayers (those naming it), or every relayer (a
 * channel: no relayer names one).
 */
export function hearingOf(
  events: readonly EventName[] | null,
  relayerIds: readonly string[] | null,
  nullRelayers: 'own' | 'every',
): Hearing {
  const every = relayerIds?.[0] === '*';
  return {
    every: events === null,
    events: events === null ? [] : [...events],
    relayers: relayerIds === null ? nullRelayers : every ? 'every' : 'these',
    ids: relayerIds === null || every ? '' : relayerIds.join('\n'),
  };
}

/**
 * `events` and `relayer_ids` as the API takes them: the events checked of those `offered`, in their
 * order; `these` with no id is [] (a scoped key's none).
 */
export function hearingBody(
  hearing: Hearing,
  offered: readonly EventName[] = EVENTS,
): { events: EventName[] | null; relayer_ids: string[] | null } {
  const { every, events, relayers, ids } = hearing;
  return {
    events: every ? null : offered.filter((name) => events.includes(name)),
    relayer_ids: relayers === 'own' ? null : relayers === 'every' ? ['*'] : lines(ids),
  };
}

const RELAYER_LABEL: Record<RelayerChoice, string> = {
  own: 'Only those naming it as their notification target',
  every: 'Every relayer',
  these: 'These relayers too',
};

/**
 * The events (every one, or those checked of `offered`) and the relayers (`choices`, with a label of
 * their own where given) of a target's subscription or a channel, each with the API's problem about
 * it; the controls' ids start with `id`.
 */
export function HearingFields({
  id,
  hearing,
  onHearing,
  offered,
  eventsHelp,
  choices,
  errors,
}: {
  id: string;
  hearing: Hearing;
  onHearing: (hearing: Hearing) => void;
  offered: readonly EventName[];
  eventsHelp: string;
  choices: ReadonlyArray<readonly [RelayerChoice, string?]>;
  errors: FieldErrors;
}) {
  const set = (change: Partial<Hearing>) => onHearing({ ...hearing, ...change });
  const { every, events, relayers, ids } = hearing;
  return (
    <>
      <fieldset {...controlProps(`${id}-events`, errors.of('events'), false)}>
        <legend>Events</legend>
        <div class="checks">
          <label class="check">
            <input type="radio" name={`${id}-events`} checked={every} onChange={() => set({ every: true })} />
            Every event
          </label>
          <label class="check">
            <input
              type="radio"
              name={`${id}-events`}
              checked={!every}
              onChange={() => set({ every: false })}
            />
            Only these
          </label>
        </div>
        {!every && (
          <div class="checks">
            {offered.map((name) => (
              <label class="check" key={name}>
                <input
                  type="checkbox"
                  checked={events.includes(name)}
                  onChange={(e) =>
                    set({
                      events: e.currentTarget.checked ? [...events, name] : events.filter((n) => n !== name),
                    })
                  }
                />
                <code>{name}</code>
              </label>
            ))}
          </div>
        )}
        <p class="help">{eventsHelp}</p>
        <FieldError id={`${id}-events`} error={errors.of('events')} />
      </fieldset>
      <fieldset>
        <legend>Relayers</legend>
        <div class="checks">
          {choices.map(([choice, label]) => (
            <label class="check" key={choice}>
              <input
                type="radio"
                name={`${id}-relayers`}
                checked={relayers === choice}
                onChange={() => set({ relayers: choice })}
              />
              {label ?? RELAYER_LABEL[choice]}
            </label>
          ))}
        </div>
        {relayers === 'these' && (
          <Field
            id={`${id}-relayers`}
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
                onInput={(e) => set({ ids: e.currentTarget.value })}
              />
            )}
          </Field>
        )}
        {relayers !== 'these' && <FieldError id={`${id}-relayers`} error={errors.of('relayer_ids')} />}
      </fieldset>
    </>
  );
}

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
  const [hearing, setHearing] = useState(() =>
    hearingOf(subscription.events, subscription.relayer_ids, 'own'),
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
              body: hearingBody(hearing),
            }),
          ),
        ),
      'Saved.',
    );
    if (ok) onDone();
  };
  return (
    <form class="edit-form" aria-label="Edit the subscription" onSubmit={(event) => void save(event)}>
      <HearingFields
        id="subscription"
        hearing={hearing}
        onHearing={setHearing}
        offered={EVENTS}
        eventsHelp="notification_test is sent whatever is chosen."
        choices={[['own'], ['every'], ['these']]}
        errors={errors}
      />
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
