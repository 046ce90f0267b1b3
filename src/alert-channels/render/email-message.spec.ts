import {
  EVENT_ID,
  OCCURRED_AT,
  eventBody,
  relayerEventBody,
  relayerResponse,
} from '../../../test/factories/event-bodies';
import { renderAlert, type AlertMessage, type RenderContext } from './alert-message';
import { emailMessage, escapeHtml, type EmailMessage } from './email-message';

const PUBLIC_URL = 'https://relayers.example.com';
const RELAYER_PAGE = `${PUBLIC_URL}/console/#/relayers/rl-payments-1`;
const FOOTER = (event: string) => `Event ${EVENT_ID} (${event}) at ${OCCURRED_AT}`;

function render(body: string, publicUrl: string | null = PUBLIC_URL): AlertMessage {
  const context: RenderContext = {
    publicUrl,
    channelId: 'ch-mail',
    unitOf: () => ({ symbol: 'XLM', decimals: 7 }),
  };
  return renderAlert(body, context);
}

const RELAYER = relayerResponse({ network: 'testnet', network_type: 'stellar', address: 'GABC' });
const RELAYER_LINES = [
  'Relayer: payments-1',
  'Relayer ID: rl-payments-1',
  'Network: testnet (stellar)',
  'Address: GABC',
];
const RELAYER_ROWS = [
  '<tr><th align="left" valign="top">Relayer</th><td>payments-1</td></tr>',
  '<tr><th align="left" valign="top">Relayer ID</th><td>rl-payments-1</td></tr>',
  '<tr><th align="left" valign="top">Network</th><td>testnet (stellar)</td></tr>',
  '<tr><th align="left" valign="top">Address</th><td>GABC</td></tr>',
];
const row = (label: string, value: string) =>
  `<tr><th align="left" valign="top">${label}</th><td>${value}</td></tr>`;

/** The e-mail of an event: `lines` and `rows` after the title, the link when there is one. */
function expected(
  event: string,
  title: string,
  lines: string[],
  rows: string[],
  link: string | null = RELAYER_PAGE,
): EmailMessage {
  return {
    subject: `[relayer] ${title}`,
    text: [
      title,
      '',
      ...lines,
      ...(link === null ? [] : ['', `Open in console: ${link}`]),
      '',
      FOOTER(event),
    ].join('\n'),
    html: [
      '<!DOCTYPE html>',
      '<html>',
      '<head><meta charset="utf-8"></head>',
      '<body style="font-family: sans-serif">',
      `<h1 style="font-size: 18px">${escapeHtml(title)}</h1>`,
      '<table cellpadding="4">',
      ...rows,
      '</table>',
      ...(link === null ? [] : [`<p><a href="${escapeHtml(link)}">Open in console</a></p>`]),
      `<p style="color: #666666; font-size: 12px">${escapeHtml(FOOTER(event))}</p>`,
      '</body>',
      '</html>',
    ].join('\n'),
  };
}

describe('emailMessage', () => {
  it('writes a low balance as a subject, a plain-text body and an HTML body', () => {
    const body = relayerEventBody('relayer_low_balance', { balance: '0', threshold: '50000000' }, RELAYER);
    expect(emailMessage(render(body))).toEqual({
      subject: '[relayer] payments-1 on testnet is below its alert: 0 XLM < 5 XLM',
      text: [
        'payments-1 on testnet is below its alert: 0 XLM < 5 XLM',
        '',
        'Relayer: payments-1',
        'Relayer ID: rl-payments-1',
        'Network: testnet (stellar)',
        'Address: GABC',
        'Balance: 0 XLM',
        'Alert below: 5 XLM',
        '',
        'Open in console: https://relayers.example.com/console/#/relayers/rl-payments-1',
        '',
        `Event ${EVENT_ID} (relayer_low_balance) at 2026-11-23T09:15:30.123Z`,
      ].join('\n'),
      html: [
        '<!DOCTYPE html>',
        '<html>',
        '<head><meta charset="utf-8"></head>',
        '<body style="font-family: sans-serif">',
        '<h1 style="font-size: 18px">payments-1 on testnet is below its alert: 0 XLM &lt; 5 XLM</h1>',
        '<table cellpadding="4">',
        '<tr><th align="left" valign="top">Relayer</th><td>payments-1</td></tr>',
        '<tr><th align="left" valign="top">Relayer ID</th><td>rl-payments-1</td></tr>',
        '<tr><th align="left" valign="top">Network</th><td>testnet (stellar)</td></tr>',
        '<tr><th align="left" valign="top">Address</th><td>GABC</td></tr>',
        '<tr><th align="left" valign="top">Balance</th><td>0 XLM</td></tr>',
        '<tr><th align="left" valign="top">Alert below</th><td>5 XLM</td></tr>',
        '</table>',
        '<p><a href="https://relayers.example.com/console/#/relayers/rl-payments-1">Open in console</a></p>',
        `<p style="color: #666666; font-size: 12px">Event ${EVENT_ID} (relayer_low_balance) at 2026-11-23T09:15:30.123Z</p>`,
        '</body>',
        '</html>',
      ].join('\n'),
    } satisfies EmailMessage);
  });

  it.each([
    [
      'relayer_created',
      relayerEventBody('relayer_created', {}, RELAYER),
      expected('relayer_created', 'payments-1 on testnet was created', RELAYER_LINES, RELAYER_ROWS),
    ],
    [
      'relayer_updated',
      relayerEventBody('relayer_updated', { changed: ['notification_id'] }, RELAYER),
      expected(
        'relayer_updated',
        'payments-1 on testnet was updated: notification_id',
        [...RELAYER_LINES, 'Changed: notification_id'],
        [...RELAYER_ROWS, row('Changed', 'notification_id')],
      ),
    ],
    [
      'relayer_deleted',
      relayerEventBody('relayer_deleted', {}, RELAYER),
      expected(
        'relayer_deleted',
        'payments-1 on testnet was deleted',
        RELAYER_LINES,
        RELAYER_ROWS,
        `${PUBLIC_URL}/console/#/audit?resource_type=relayer&resource_id=rl-payments-1`,
      ),
    ],
    [
      'relayer_disabled',
      relayerEventBody('relayer_disabled', { disable_reason: 'Sequence "42" & <rpc> refused' }, RELAYER),
      expected(
        'relayer_disabled',
        'payments-1 on testnet was disabled: Sequence "42" & <rpc> refused',
        [...RELAYER_LINES, 'Reason: Sequence "42" & <rpc> refused'],
        [...RELAYER_ROWS, row('Reason', 'Sequence &quot;42&quot; &amp; &lt;rpc&gt; refused')],
      ),
    ],
    [
      'relayer_enabled',
      relayerEventBody('relayer_enabled', { retry_count: 5 }, RELAYER),
      expected(
        'relayer_enabled',
        'payments-1 on testnet is enabled again after 5 failed checks',
        [...RELAYER_LINES, 'Failed checks: 5'],
        [...RELAYER_ROWS, row('Failed checks', '5')],
      ),
    ],
    [
      'relayer_balance_restored',
      relayerEventBody('relayer_balance_restored', { balance: '50000001', threshold: '50000000' }, RELAYER),
      expected(
        'relayer_balance_restored',
        'payments-1 on testnet is no longer below its alert: 5.0000001 XLM >= 5 XLM',
        [...RELAYER_LINES, 'Balance: 5.0000001 XLM', 'Alert below: 5 XLM'],
        [...RELAYER_ROWS, row('Balance', '5.0000001 XLM'), row('Alert below', '5 XLM')],
      ),
    ],
    [
      'notification_test',
      eventBody('notification_test', { payload_type: 'notification_test' }),
      expected(
        'notification_test',
        'Test message for alert channel ch-mail',
        ['Channel: ch-mail'],
        [row('Channel', 'ch-mail')],
        `${PUBLIC_URL}/console/`,
      ),
    ],
    [
      'an unknown payload_type',
      eventBody('audit_digest', { payload_type: 'audit_digest' }),
      expected(
        'audit_digest',
        'Event audit_digest',
        ['Event: audit_digest'],
        [row('Event', 'audit_digest')],
        `${PUBLIC_URL}/console/`,
      ),
    ],
  ])('writes %s', (_case, body, email) => {
    expect(emailMessage(render(body))).toEqual(email);
  });

  it('has no link in either body without a public URL', () => {
    const body = relayerEventBody('relayer_created', {}, RELAYER);
    expect(emailMessage(render(body, null))).toEqual(
      expected('relayer_created', 'payments-1 on testnet was created', RELAYER_LINES, RELAYER_ROWS, null),
    );
  });

  it('escapes a hostile relayer name in HTML and keeps it as it is in the plain text', () => {
    const name = `<script>alert(1)</script> *bold* <!channel> & O'Brien`;
    const body = relayerEventBody('relayer_created', {}, { ...RELAYER, name });
    const escaped = '&lt;script&gt;alert(1)&lt;/script&gt; *bold* &lt;!channel&gt; &amp; O&#39;Brien';
    expect(emailMessage(render(body))).toEqual(
      expected(
        'relayer_created',
        `${name} on testnet was created`,
        [`Relayer: ${name}`, ...RELAYER_LINES.slice(1)],
        [row('Relayer', escaped), ...RELAYER_ROWS.slice(1)],
      ),
    );
    expect(emailMessage(render(body)).html.split('\n')[4]).toBe(
      `<h1 style="font-size: 18px">${escaped} on testnet was created</h1>`,
    );
  });

  it('escapes the link in its attribute', () => {
    const message = {
      ...render(relayerEventBody('relayer_created', {}, RELAYER)),
      link: 'https://x.example/"><b>',
    };
    expect(emailMessage(message).html.split('\n')[11]).toBe(
      '<p><a href="https://x.example/&quot;&gt;&lt;b&gt;">Open in console</a></p>',
    );
  });

  it('clips the subject to 200 characters on one line', () => {
    const message = {
      ...render(relayerEventBody('relayer_created', {}, RELAYER)),
      title: `a\r\nb${'c'.repeat(300)}`,
    };
    const { subject } = emailMessage(message);
    expect(subject).toBe(`[relayer] a b${'c'.repeat(186)}…`);
    expect(subject).toHaveLength(200);
  });
});
