import {
  EVENT_ID,
  OCCURRED_AT,
  eventBody,
  relayerEventBody,
  relayerResponse,
} from '../../../test/factories/event-bodies';
import {
  renderAlert,
  type AlertField,
  type AlertMessage,
  type NativeUnit,
  type RenderContext,
} from './alert-message';

const PUBLIC_URL = 'https://relayers.example.com';
const RELAYER_PAGE = `${PUBLIC_URL}/console/#/relayers/rl-payments-1`;
const UNITS: Record<string, NativeUnit> = {
  evm: { symbol: 'ETH', decimals: 18 },
  solana: { symbol: 'SOL', decimals: 9 },
  stellar: { symbol: 'XLM', decimals: 7 },
};

/** A context whose unitOf answers by network type and records what it was asked. */
function contextWith(publicUrl: string | null = PUBLIC_URL): RenderContext & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    publicUrl,
    channelId: 'ch-ops',
    asked,
    unitOf(networkType, network) {
      asked.push([networkType, network]);
      return UNITS[networkType] ?? { symbol: '?', decimals: 0 };
    },
  };
}

const RELAYER_FIELDS: AlertField[] = [
  { label: 'Relayer', value: 'payments-1' },
  { label: 'Relayer ID', value: 'rl-payments-1' },
  { label: 'Network', value: 'mainnet (evm)' },
  { label: 'Address', value: '0x00000000000000000000000000000000000000a1' },
];

/** The message expected of the default relayer's event: its text is the title, a blank line, a line per field. */
function expected(
  event: string,
  title: string,
  fields: AlertField[],
  rest: Partial<AlertMessage> = {},
): AlertMessage {
  return {
    event,
    eventId: EVENT_ID,
    occurredAt: OCCURRED_AT,
    title,
    text: [title, '', ...fields.map(({ label, value }) => `${label}: ${value}`)].join('\n'),
    fields,
    severity: 'info',
    incident: null,
    relayerId: 'rl-payments-1',
    network: 'mainnet',
    link: RELAYER_PAGE,
    ...rest,
  };
}

describe('renderAlert', () => {
  it('writes the text as the title, a blank line and a line per field', () => {
    const body = relayerEventBody('relayer_low_balance', {
      balance: '40000000000000000',
      threshold: '50000000000000000',
    });
    expect(renderAlert(body, contextWith()).text).toBe(
      [
        'payments-1 on mainnet is below its alert: 0.04 ETH < 0.05 ETH',
        '',
        'Relayer: payments-1',
        'Relayer ID: rl-payments-1',
        'Network: mainnet (evm)',
        'Address: 0x00000000000000000000000000000000000000a1',
        'Balance: 0.04 ETH',
        'Alert below: 0.05 ETH',
      ].join('\n'),
    );
  });

  it.each<[string, string, AlertMessage]>([
    [
      'relayer_created',
      relayerEventBody('relayer_created'),
      expected('relayer_created', 'payments-1 on mainnet was created', RELAYER_FIELDS),
    ],
    [
      'relayer_updated, naming what changed',
      relayerEventBody('relayer_updated', { changed: ['name', 'paused'] }),
      expected('relayer_updated', 'payments-1 on mainnet was updated: name, paused', [
        ...RELAYER_FIELDS,
        { label: 'Changed', value: 'name, paused' },
      ]),
    ],
    [
      'relayer_updated without a list of changes',
      relayerEventBody('relayer_updated', { changed: [] }),
      expected('relayer_updated', 'payments-1 on mainnet was updated', RELAYER_FIELDS),
    ],
    [
      'relayer_deleted, linking to its history in the audit trail (its page is gone)',
      relayerEventBody('relayer_deleted'),
      expected('relayer_deleted', 'payments-1 on mainnet was deleted', RELAYER_FIELDS, {
        link: `${PUBLIC_URL}/console/#/audit?resource_type=relayer&resource_id=rl-payments-1`,
      }),
    ],
    [
      'relayer_disabled, its reason on one line, triggering <id>:disabled',
      relayerEventBody('relayer_disabled', {
        disable_reason: 'RPC https://rpc.example.com answered 503\r\n\tafter 3 tries',
      }),
      expected(
        'relayer_disabled',
        'payments-1 on mainnet was disabled: RPC https://rpc.example.com answered 503 after 3 tries',
        [
          ...RELAYER_FIELDS,
          { label: 'Reason', value: 'RPC https://rpc.example.com answered 503 after 3 tries' },
        ],
        { severity: 'critical', incident: { action: 'trigger', dedupKey: 'rl-payments-1:disabled' } },
      ),
    ],
    [
      'relayer_disabled without a reason',
      relayerEventBody('relayer_disabled', { disable_reason: null }),
      expected(
        'relayer_disabled',
        'payments-1 on mainnet was disabled by a health check',
        [...RELAYER_FIELDS, { label: 'Reason', value: 'not given' }],
        { severity: 'critical', incident: { action: 'trigger', dedupKey: 'rl-payments-1:disabled' } },
      ),
    ],
    [
      'relayer_enabled after failed checks, resolving <id>:disabled',
      relayerEventBody('relayer_enabled', { retry_count: 3 }),
      expected(
        'relayer_enabled',
        'payments-1 on mainnet is enabled again after 3 failed checks',
        [...RELAYER_FIELDS, { label: 'Failed checks', value: '3' }],
        { incident: { action: 'resolve', dedupKey: 'rl-payments-1:disabled' } },
      ),
    ],
    [
      'relayer_enabled after one failed check',
      relayerEventBody('relayer_enabled', { retry_count: 1 }),
      expected(
        'relayer_enabled',
        'payments-1 on mainnet is enabled again after 1 failed check',
        [...RELAYER_FIELDS, { label: 'Failed checks', value: '1' }],
        { incident: { action: 'resolve', dedupKey: 'rl-payments-1:disabled' } },
      ),
    ],
    [
      'relayer_enabled with no failed check',
      relayerEventBody('relayer_enabled', { retry_count: 0 }),
      expected(
        'relayer_enabled',
        'payments-1 on mainnet is enabled again',
        [...RELAYER_FIELDS, { label: 'Failed checks', value: '0' }],
        { incident: { action: 'resolve', dedupKey: 'rl-payments-1:disabled' } },
      ),
    ],
    [
      'relayer_low_balance in native units, triggering <id>:low_balance',
      relayerEventBody('relayer_low_balance', {
        balance: '40000000000000000',
        threshold: '50000000000000000',
      }),
      expected(
        'relayer_low_balance',
        'payments-1 on mainnet is below its alert: 0.04 ETH < 0.05 ETH',
        [
          ...RELAYER_FIELDS,
          { label: 'Balance', value: '0.04 ETH' },
          { label: 'Alert below', value: '0.05 ETH' },
        ],
        { severity: 'warning', incident: { action: 'trigger', dedupKey: 'rl-payments-1:low_balance' } },
      ),
    ],
    [
      'relayer_balance_restored, resolving <id>:low_balance',
      relayerEventBody('relayer_balance_restored', {
        balance: '50000000000000000',
        threshold: '50000000000000000',
      }),
      expected(
        'relayer_balance_restored',
        'payments-1 on mainnet is no longer below its alert: 0.05 ETH >= 0.05 ETH',
        [
          ...RELAYER_FIELDS,
          { label: 'Balance', value: '0.05 ETH' },
          { label: 'Alert below', value: '0.05 ETH' },
        ],
        { incident: { action: 'resolve', dedupKey: 'rl-payments-1:low_balance' } },
      ),
    ],
    [
      'notification_test, naming the channel, triggering an info incident of its own',
      eventBody('notification_test', { payload_type: 'notification_test', notification_id: 'ch-ops' }),
      {
        event: 'notification_test',
        eventId: EVENT_ID,
        occurredAt: OCCURRED_AT,
        title: 'Test message for alert channel ch-ops',
        text: 'Test message for alert channel ch-ops\n\nChannel: ch-ops',
        fields: [{ label: 'Channel', value: 'ch-ops' }],
        severity: 'info',
        incident: { action: 'trigger', dedupKey: `test:ch-ops:${EVENT_ID}` },
        relayerId: null,
        network: null,
        link: `${PUBLIC_URL}/console/`,
      },
    ],
    [
      'an unknown payload_type about a relayer, named, with the relayer',
      relayerEventBody('relayer_renamed', { previous: 'payments-0' }),
      expected('relayer_renamed', 'Event relayer_renamed for payments-1 on mainnet', [
        { label: 'Event', value: 'relayer_renamed' },
        ...RELAYER_FIELDS,
      ]),
    ],
    [
      'an unknown payload_type about no relayer',
      eventBody('audit_digest', { payload_type: 'audit_digest', entries: 3 }),
      {
        event: 'audit_digest',
        eventId: EVENT_ID,
        occurredAt: OCCURRED_AT,
        title: 'Event audit_digest',
        text: 'Event audit_digest\n\nEvent: audit_digest',
        fields: [{ label: 'Event', value: 'audit_digest' }],
        severity: 'info',
        incident: null,
        relayerId: null,
        network: null,
        link: `${PUBLIC_URL}/console/`,
      },
    ],
    [
      'a payload without payload_type, by the body’s event',
      eventBody('something_new', {}),
      {
        event: 'something_new',
        eventId: EVENT_ID,
        occurredAt: OCCURRED_AT,
        title: 'Event something_new',
        text: 'Event something_new\n\nEvent: something_new',
        fields: [{ label: 'Event', value: 'something_new' }],
        severity: 'info',
        incident: null,
        relayerId: null,
        network: null,
        link: `${PUBLIC_URL}/console/`,
      },
    ],
  ])('renders %s', (_case, body, message) => {
    expect(renderAlert(body, contextWith())).toEqual(message);
  });

  it.each([
    ['evm', 'mainnet', '1', '0.000000000000000001 ETH'],
    ['solana', 'devnet', '1500000000', '1.5 SOL'],
    ['stellar', 'testnet', '123456789012345678901234', '12,345,678,901,234,567.8901234 XLM'],
  ])('shows %s amounts in the unit unitOf gives for the relayer’s network', (type, network, base, shown) => {
    const context = contextWith();
    const body = relayerEventBody(
      'relayer_low_balance',
      { balance: base, threshold: base },
      relayerResponse({ network_type: type, network }),
    );
    const message = renderAlert(body, context);
    expect(context.asked).toEqual([[type, network]]);
    expect(message.fields.slice(-2)).toEqual([
      { label: 'Balance', value: shown },
      { label: 'Alert below', value: shown },
    ]);
  });

  it('shows an amount that is not a string of digits as unknown', () => {
    const body = relayerEventBody('relayer_low_balance', { balance: 4e16, threshold: '-5' });
    expect(renderAlert(body, contextWith()).title).toBe(
      'payments-1 on mainnet is below its alert: unknown < unknown',
    );
  });

  it('has no link, for any event, without a public URL', () => {
    const bodies = [
      relayerEventBody('relayer_created'),
      relayerEventBody('relayer_deleted'),
      relayerEventBody('relayer_low_balance', { balance: '1', threshold: '2' }),
      eventBody('notification_test', { payload_type: 'notification_test' }),
      eventBody('audit_digest', { payload_type: 'audit_digest' }),
    ];
    expect(bodies.map((body) => renderAlert(body, contextWith(null)).link)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('links under a public URL written with a trailing slash without doubling it', () => {
    const message = renderAlert(
      relayerEventBody('relayer_created'),
      contextWith('https://relayers.example.com/'),
    );
    expect(message.link).toBe(RELAYER_PAGE);
  });

  it('encodes the relayer id in its link and keeps it as it is for the incident', () => {
    const body = relayerEventBody(
      'relayer_disabled',
      { disable_reason: 'x' },
      relayerResponse({ id: 'rl/1 #2' }),
    );
    const message = renderAlert(body, contextWith());
    expect([message.link, message.incident, message.relayerId]).toEqual([
      `${PUBLIC_URL}/console/#/relayers/rl%2F1%20%232`,
      { action: 'trigger', dedupKey: 'rl/1 #2:disabled' },
      'rl/1 #2',
    ]);
  });

  it('names a relayer without a name by its id, and then shows the id once', () => {
    const body = relayerEventBody('relayer_created', {}, relayerResponse({ name: '' }));
    const message = renderAlert(body, contextWith());
    expect([message.title, message.fields]).toEqual([
      'rl-payments-1 on mainnet was created',
      [
        { label: 'Relayer', value: 'rl-payments-1' },
        { label: 'Network', value: 'mainnet (evm)' },
        { label: 'Address', value: '0x00000000000000000000000000000000000000a1' },
      ],
    ]);
  });

  it('keeps a hostile name as it is, on one line: each format escapes it', () => {
    const name = '<script>alert(1)</script>\n*bold* <!channel> & co';
    const body = relayerEventBody('relayer_deleted', {}, relayerResponse({ name }));
    const message = renderAlert(body, contextWith());
    expect([message.title, message.fields[0]]).toEqual([
      '<script>alert(1)</script> *bold* <!channel> & co on mainnet was deleted',
      { label: 'Relayer', value: '<script>alert(1)</script> *bold* <!channel> & co' },
    ]);
  });

  it('renders a relayer event whose relayer lacks its fields without refusing it', () => {
    const body = relayerEventBody('relayer_disabled', { disable_reason: 'x' }, {});
    expect(renderAlert(body, contextWith())).toEqual({
      event: 'relayer_disabled',
      eventId: EVENT_ID,
      occurredAt: OCCURRED_AT,
      title: 'Unnamed relayer on an unknown network was disabled: x',
      text: 'Unnamed relayer on an unknown network was disabled: x\n\nRelayer: Unnamed relayer\nNetwork: an unknown network\nReason: x',
      fields: [
        { label: 'Relayer', value: 'Unnamed relayer' },
        { label: 'Network', value: 'an unknown network' },
        { label: 'Reason', value: 'x' },
      ],
      severity: 'critical',
      // No id: no incident that nothing could resolve.
      incident: null,
      relayerId: null,
      network: null,
      link: `${PUBLIC_URL}/console/`,
    });
  });

  it.each([
    [
      'not JSON',
      '{"id": "e1", "payload": {"payload_type": "relayer_created", "relayer": {"name": "secret-ish"',
    ],
    ['an array', '[]'],
    ['an event without a payload', JSON.stringify({ id: 'e1', event: 'relayer_created' })],
  ])('refuses a body that is %s, without quoting it', (_case, body) => {
    expect(() => renderAlert(body, contextWith())).toThrow(
      new Error('An alert body must be the JSON of an event'),
    );
  });
});
