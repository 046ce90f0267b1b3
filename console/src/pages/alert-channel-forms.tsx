import { useState } from 'preact/hooks';
import { api, read, type Schemas } from '../api/client';
import { OutcomeText, useAction } from '../components';
import { EditAndDelete, Field, NewIdField, useFieldErrors, type FieldErrors } from '../forms';
import { navigate } from '../router';
import {
  CHANNEL_TYPES,
  eventsOf,
  shownConfig,
  TYPE_LABEL,
  whereOf,
  type Channel,
  type ChannelType,
} from './alert-channel-parts';
import { hearingBody, HearingFields, hearingOf, lines, type Hearing } from './notification-forms';

/** A channel's configuration as its form holds it: each type's field, the recipients one a line. */
interface ConfigValues {
  webhook_url: string;
  routing_key: string;
  to: string;
}

const NO_CONFIG: ConfigValues = { webhook_url: '', routing_key: '', to: '' };

/** The paths of the fields the API names in a 400 (docs/console.md#36-forms-and-confirmations). */
const FIELDS = ['id', 'config.webhook_url', 'config.routing_key', 'config.to', 'events', 'relayer_ids'];

/** The relayers a channel hears: null is every relayer (no relayer names a channel). */
const RELAYER_CHOICES = [['every'], ['these', 'These relayers']] as const;

/** What a type's events say beside them. */
const eventsHelp = (type: ChannelType) =>
  type === 'pagerduty'
    ? 'A PagerDuty channel hears only what opens or resolves an incident: every event is these three. Send a test reaches it whatever is chosen.'
    : 'Send a test reaches the channel whatever is chosen.';

/** The `config` of a type as the API takes it. */
function configBody(type: ChannelType, values: ConfigValues): Record<string, unknown> {
  switch (type) {
    case 'slack':
      return { webhook_url: values.webhook_url.trim() };
    case 'pagerduty':
      return { routing_key: values.routing_key.trim() };
    case 'email':
      return { to: lines(values.to) };
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The configuration fields of a type. `masked`: the values are the API's, secrets masked, and a
 * masked value left as it is keeps the secret stored behind it (the service matches it).
 */
function ConfigFields({
  id,
  type,
  values,
  onValues,
  errors,
  masked,
}: {
  id: string;
  type: ChannelType;
  values: ConfigValues;
  onValues: (values: ConfigValues) => void;
  errors: FieldErrors;
  masked: boolean;
}) {
  const set = (change: Partial<ConfigValues>) => onValues({ ...values, ...change });
  switch (type) {
    case 'slack':
      return (
        <Field
          id={`${id}-webhook-url`}
          label="Slack webhook URL"
          help={
            masked
              ? 'Left as shown, masked with ***, the URL stored behind it is kept, unchanged: the console sends the masked text back. To change it, replace all of it.'
              : "The incoming webhook's URL Slack gave; the webhook URL policy applies (docs/configuration.md#the-url-policy). Its last part is a secret: once saved, it is shown masked."
          }
          error={errors.of('config.webhook_url')}
        >
          {(props) => (
            <input
              {...props}
              type="url"
              spellcheck={false}
              autoComplete="off"
              value={values.webhook_url}
              onInput={(e) => set({ webhook_url: e.currentTarget.value })}
            />
          )}
        </Field>
      );
    case 'pagerduty':
      return (
        <Field
          id={`${id}-routing-key`}
          label="Routing key"
          help={
            masked
              ? 'Left as *** (as read), the stored key is kept, unchanged. To change it, type the new key: 32 letters and digits.'
              : "The integration key of a PagerDuty service's Events API v2 integration: 32 letters and digits. Never shown again."
          }
          error={errors.of('config.routing_key')}
        >
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="new-password"
              spellcheck={false}
              value={values.routing_key}
              onInput={(e) => set({ routing_key: e.currentTarget.value })}
            />
          )}
        </Field>
      );
    case 'email':
      return (
        <Field
          id={`${id}-to`}
          label="Recipients, one per line"
          help="1 to 20 e-mail addresses. The service sends through SMTP_URL, which must be set."
          error={errors.of('config.to')}
        >
          {(props) => (
            <textarea
              {...props}
              rows={3}
              spellcheck={false}
              value={values.to}
              onInput={(e) => set({ to: e.currentTarget.value })}
            />
          )}
        </Field>
      );
  }
}

/** POST /api/v1/alert-channels: a new channel of a type; its page opens once made. */
export function ChannelCreate() {
  const [id, setId] = useState('');
  const [type, setType] = useState<ChannelType>('slack');
  const [config, setConfig] = useState(NO_CONFIG);
  const [hearing, setHearing] = useState(() => hearingOf(null, null, 'every'));
  const errors = useFieldErrors(FIELDS);
  const [outcome, busy, act] = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    let made: Channel | null = null;
    await act(async () => {
      made = await errors.guard(() =>
        read(
          api.POST('/api/v1/alert-channels', {
            body: {
              type,
              config: configBody(type, config),
              ...hearingBody(hearing, eventsOf(type)),
              ...(id.trim() === '' ? {} : { id: id.trim() }),
            },
          }),
        ),
      );
    }, 'Created.');
    const created = made as Channel | null;
    if (created !== null) navigate(['alert-channels', created.id]);
  };
  return (
    <details class="panel create">
      <summary>Create an alert channel</summary>
      <form class="edit-form" aria-label="Create an alert channel" onSubmit={(event) => void submit(event)}>
        <NewIdField id="new-channel-id" value={id} onValue={setId} error={errors.of('id')} />
        <Field id="new-channel-type" label="Type" error={null}>
          {(props) => (
            <select
              {...props}
              value={type}
              onChange={(e) => setType(CHANNEL_TYPES.find((t) => t === e.currentTarget.value) ?? 'slack')}
            >
              {CHANNEL_TYPES.map((t) => (
                <option value={t} key={t}>
                  {TYPE_LABEL[t]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <ConfigFields
          id="new-channel"
          type={type}
          values={config}
          onValues={setConfig}
          errors={errors}
          masked={false}
        />
        <HearingFields
          id="new-channel"
          hearing={hearing}
          onHearing={setHearing}
          offered={eventsOf(type)}
          eventsHelp={eventsHelp(type)}
          choices={RELAYER_CHOICES}
          errors={errors}
        />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Create channel
          </button>
        </div>
        <OutcomeText outcome={outcome?.kind === 'error' ? outcome : null} />
      </form>
    </details>
  );
}

/** A channel's configuration and what it hears, as read, for its form. */
function formOf(channel: Channel): { config: ConfigValues; hearing: Hearing } {
  const shown = shownConfig(channel);
  return {
    config: { ...shown, to: shown.to.join('\n') },
    hearing: hearingOf(channel.events, channel.relayer_ids, 'every'),
  };
}

/**
 * PATCH /api/v1/alert-channels/{id}: its configuration (secrets as the API masked them: left so, they
 * are kept), events and relayers, each sent only when changed; DELETE after a confirmation.
 */
export function ChannelEdit({ channel, onChanged }: { channel: Channel; onChanged: () => void }) {
  const [config, setConfig] = useState(NO_CONFIG);
  const [hearing, setHearing] = useState(() => formOf(channel).hearing);
  const errors = useFieldErrors(FIELDS);
  const offered = eventsOf(channel.type);
  const path = { params: { path: { channel_id: channel.id } } };
  const open = () => {
    const form = formOf(channel);
    setConfig(form.config);
    setHearing(form.hearing);
    errors.clear();
  };
  const save = () => {
    const was = formOf(channel);
    const sent = configBody(channel.type, config);
    const hears = hearingBody(hearing, offered);
    const heard = hearingBody(was.hearing, offered);
    const body: Schemas['UpdateAlertChannelDto'] = {
      ...(same(sent, configBody(channel.type, was.config)) ? {} : { config: sent }),
      ...(same(hears.events, heard.events) ? {} : { events: hears.events }),
      ...(same(hears.relayer_ids, heard.relayer_ids) ? {} : { relayer_ids: hears.relayer_ids }),
    };
    return errors.guard(() => read(api.PATCH('/api/v1/alert-channels/{channel_id}', { ...path, body })));
  };
  return (
    <EditAndDelete
      what={`channel ${channel.id}`}
      id={channel.id}
      onOpen={open}
      save={save}
      onSaved={onChanged}
      remove={() => read<string>(api.DELETE('/api/v1/alert-channels/{channel_id}', path))}
      onDeleted={() => navigate(['alert-channels'])}
      effect={`Nothing more is sent to ${whereOf(channel)}. Its delivery log is deleted with it, and its pending deliveries are never sent. This cannot be undone.`}
    >
      <ConfigFields
        id="channel"
        type={channel.type}
        values={config}
        onValues={setConfig}
        errors={errors}
        masked
      />
      <HearingFields
        id="channel"
        hearing={hearing}
        onHearing={setHearing}
        offered={offered}
        eventsHelp={eventsHelp(channel.type)}
        choices={RELAYER_CHOICES}
        errors={errors}
      />
    </EditAndDelete>
  );
}
