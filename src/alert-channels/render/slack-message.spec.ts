import {
  EVENT_ID,
  OCCURRED_AT,
  eventBody,
  relayerEventBody,
  relayerResponse,
} from '../../../test/factories/event-bodies';
import { renderAlert, type AlertMessage, type RenderContext } from './alert-message';
import { slackMessage, type SlackBlock, type SlackMessage } from './slack-message';

const PUBLIC_URL = 'https://relayers.example.com';
const RELAYER_PAGE = `${PUBLIC_URL}/console/#/relayers/rl-payments-1`;
const ETH = { symbol: 'ETH', decimals: 18 };

function render(body: string, publicUrl: string | null = PUBLIC_URL): AlertMessage {
  const context: RenderContext = { publicUrl, channelId: 'ch-ops', unitOf: () => ETH };
  return renderAlert(body, context);
}

/** OCCURRED_AT as Slack's date token: each reader sees it in their zone, the ISO time as the fallback. */
const WHEN = `<!date^1795425330^{date_short_pretty} at {time_secs}|${OCCURRED_AT}>`;

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text, verbatim: true }) as const;
const button = (url: string): SlackBlock => ({
  type: 'actions',
  elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in console' }, url }],
});
const RELAYER_FIELDS = [
  mrkdwn('*Relayer*\npayments-1'),
  mrkdwn('*Relayer ID*\nrl-payments-1'),
  mrkdwn('*Network*\nmainnet (evm)'),
  mrkdwn('*Address*\n0x00000000000000000000000000000000000000a1'),
];

/** The message of an event of the default relayer: header, fields, context, button. */
function expected(title: string, event: string, fields: ReturnType<typeof mrkdwn>[], link = RELAYER_PAGE) {
  return {
    text: title,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title } },
      { type: 'section', fields },
      { type: 'context', elements: [mrkdwn(`${WHEN} · ${event} · event ${EVENT_ID}`)] },
      button(link),
    ],
  };
}

describe('slackMessage', () => {
  it('writes a low balance as a header, its fields, the time and a button to the relayer', () => {
    const body = relayerEventBody('relayer_low_balance', {
      balance: '40000000000000000',
      threshold: '50000000000000000',
    });
    expect(slackMessage(render(body))).toEqual({
      text: 'payments-1 on mainnet is below its alert: 0.04 ETH &lt; 0.05 ETH',
      blocks: [
        {
          type: 'header',
          text: { type: 'plain_text', text: 'payments-1 on mainnet is below its alert: 0.04 ETH < 0.05 ETH' },
        },
        {
          type: 'section',
          fields: [
            { type: 'mrkdwn', text: '*Relayer*\npayments-1', verbatim: true },
            { type: 'mrkdwn', text: '*Relayer ID*\nrl-payments-1', verbatim: true },
            { type: 'mrkdwn', text: '*Network*\nmainnet (evm)', verbatim: true },
            { type: 'mrkdwn', text: '*Address*\n0x00000000000000000000000000000000000000a1', verbatim: true },
            { type: 'mrkdwn', text: '*Balance*\n0.04 ETH', verbatim: true },
            { type: 'mrkdwn', text: '*Alert below*\n0.05 ETH', verbatim: true },
          ],
        },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: `<!date^1795425330^{date_short_pretty} at {time_secs}|2026-11-23T09:15:30.123Z> · relayer_low_balance · event ${EVENT_ID}`,
              verbatim: true,
            },
          ],
        },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              text: { type: 'plain_text', text: 'Open in console' },
              url: 'https://relayers.example.com/console/#/relayers/rl-payments-1',
            },
          ],
        },
      ],
    } satisfies SlackMessage);
  });

  it.each([
    [
      'relayer_created',
      relayerEventBody('relayer_created'),
      expected('payments-1 on mainnet was created', 'relayer_created', RELAYER_FIELDS),
    ],
    [
      'relayer_updated',
      relayerEventBody('relayer_updated', { changed: ['custom_rpc_urls', 'policies'] }),
      expected('payments-1 on mainnet was updated: custom_rpc_urls, policies', 'relayer_updated', [
        ...RELAYER_FIELDS,
        mrkdwn('*Changed*\ncustom_rpc_urls, policies'),
      ]),
    ],
    [
      'relayer_deleted',
      relayerEventBody('relayer_deleted'),
      expected(
        'payments-1 on mainnet was deleted',
        'relayer_deleted',
        RELAYER_FIELDS,
        `${PUBLIC_URL}/console/#/audit?resource_type=relayer&resource_id=rl-payments-1`,
      ),
    ],
    [
      'relayer_disabled',
      relayerEventBody('relayer_disabled', { disable_reason: 'Balance 0.01 ETH < min_balance 0.02 ETH' }),
      {
        ...expected(
          'payments-1 on mainnet was disabled: Balance 0.01 ETH < min_balance 0.02 ETH',
          'relayer_disabled',
          [...RELAYER_FIELDS, mrkdwn('*Reason*\nBalance 0.01 ETH &lt; min_balance 0.02 ETH')],
        ),
        text: 'payments-1 on mainnet was disabled: Balance 0.01 ETH &lt; min_balance 0.02 ETH',
      },
    ],
    [
      'relayer_enabled',
      relayerEventBody('relayer_enabled', { retry_count: 2 }),
      expected('payments-1 on mainnet is enabled again after 2 failed checks', 'relayer_enabled', [
        ...RELAYER_FIELDS,
        mrkdwn('*Failed checks*\n2'),
      ]),
    ],
    [
      'relayer_balance_restored',
      relayerEventBody('relayer_balance_restored', {
        balance: '18446744073709551616',
        threshold: '50000000000000000',
      }),
      {
        ...expected(
          'payments-1 on mainnet is no longer below its alert: 18.446744073709551616 ETH >= 0.05 ETH',
          'relayer_balance_restored',
          [
            ...RELAYER_FIELDS,
            mrkdwn('*Balance*\n18.446744073709551616 ETH'),
            mrkdwn('*Alert below*\n0.05 ETH'),
          ],
        ),
        text: 'payments-1 on mainnet is no longer below its alert: 18.446744073709551616 ETH &gt;= 0.05 ETH',
      },
    ],
    [
      'notification_test',
      eventBody('notification_test', { payload_type: 'notification_test' }),
      expected(
        'Test message for alert channel ch-ops',
        'notification_test',
        [mrkdwn('*Channel*\nch-ops')],
        `${PUBLIC_URL}/console/`,
      ),
    ],
    [
      'an unknown payload_type',
      relayerEventBody('relayer_renamed'),
      expected('Event relayer_renamed for payments-1 on mainnet', 'relayer_renamed', [
        mrkdwn('*Event*\nrelayer_renamed'),
        ...RELAYER_FIELDS,
      ]),
    ],
  ])('writes %s', (_case, body, message) => {
    expect(slackMessage(render(body))).toEqual(message);
  });

  it('has no button without a public URL', () => {
    const { blocks } = slackMessage(render(relayerEventBody('relayer_created'), null));
    expect(blocks.map((block) => block.type)).toEqual(['header', 'section', 'context']);
  });

  it('escapes a hostile relayer name in mrkdwn and leaves it as it is in the plain-text header', () => {
    const name = '<script>alert(1)</script> *bold* <!channel> & co';
    const message = slackMessage(render(relayerEventBody('relayer_created', {}, relayerResponse({ name }))));
    expect(message).toEqual({
      ...expected(`${name} on mainnet was created`, 'relayer_created', [
        // Slack decodes only these three entities; *bold* is formatting, never a mention or a link.
        mrkdwn('*Relayer*\n&lt;script&gt;alert(1)&lt;/script&gt; *bold* &lt;!channel&gt; &amp; co'),
        ...RELAYER_FIELDS.slice(1),
      ]),
      text: '&lt;script&gt;alert(1)&lt;/script&gt; *bold* &lt;!channel&gt; &amp; co on mainnet was created',
    });
  });

  /** A message laid out by hand, to reach each limit. */
  function message(over: Partial<AlertMessage>): AlertMessage {
    return {
      ...render(relayerEventBody('relayer_created')),
      ...over,
    };
  }

  it('clips the header to 150 characters and the fallback text to 3000, escaped', () => {
    const title = `${'&'.repeat(100)}${'x'.repeat(4000)}`;
    const { text, blocks } = slackMessage(message({ title }));
    expect(blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: `${'&'.repeat(100)}${'x'.repeat(49)}…` },
    });
    expect(text).toBe(`${'&amp;'.repeat(100)}${'x'.repeat(2499)}…`);
    expect(text).toHaveLength(3000);
  });

  it('shows at most 10 fields, each at most 2000 characters with its label', () => {
    const fields = Array.from({ length: 12 }, (_, i) => ({ label: `F${i}`, value: '<'.repeat(600) }));
    const { blocks } = slackMessage(message({ fields }));
    // '*F0*\n' is 5 characters, 498 '&lt;' 1992 more and the ellipsis 1: a 499th would pass 2000.
    const clipped = (i: number) => mrkdwn(`*F${i}*\n${'&lt;'.repeat(498)}…`);
    expect(blocks[1]).toEqual({ type: 'section', fields: Array.from({ length: 10 }, (_, i) => clipped(i)) });
    expect(clipped(0).text).toHaveLength(1998);
  });

  it('leaves the section out for a message without fields', () => {
    const { blocks } = slackMessage(message({ fields: [] }));
    expect(blocks.map((block) => block.type)).toEqual(['header', 'context', 'actions']);
  });

  it('has no button for a link longer than a button takes (3000 characters)', () => {
    const link = `${PUBLIC_URL}/console/#/relayers/${'r'.repeat(3001 - RELAYER_PAGE.length + 'rl-payments-1'.length)}`;
    expect(link).toHaveLength(3001);
    const { blocks } = slackMessage(message({ link }));
    expect(blocks.map((block) => block.type)).toEqual(['header', 'section', 'context']);
    const fits = slackMessage(message({ link: link.slice(0, 3000) })).blocks;
    expect(fits[3]).toEqual(button(link.slice(0, 3000)));
  });

  it('shows a time it cannot read as it is, escaped, and the event parts escaped', () => {
    const { blocks } = slackMessage(message({ occurredAt: 'soon <!here>', event: 'a&b', eventId: '<e>' }));
    expect(blocks[2]).toEqual({
      type: 'context',
      elements: [mrkdwn('soon &lt;!here&gt; · a&amp;b · event &lt;e&gt;')],
    });
  });
});
