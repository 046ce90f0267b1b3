import type { UrlPolicyOptions } from '../common/security/url-policy';
import {
  channelEvents,
  channelRelayerIds,
  checkChannelConfig,
  checkChannelEvents,
  PAGERDUTY_EVENTS,
} from './alert-channels.validation';

const OPEN: UrlPolicyOptions = { allowedHosts: [], blockPrivateIps: false };
const STRICT: UrlPolicyOptions = {
  allowedHosts: ['hooks.slack.com'],
  blockPrivateIps: true,
  privateIpsVariable: 'WEBHOOK_BLOCK_PRIVATE_IPS',
};
const HOOK = 'https://hooks.slack.com/services/T0/B0/s3cr3t';
const KEY = 'a'.repeat(16) + 'B'.repeat(16);

describe('checkChannelConfig', () => {
  it.each([
    ['slack', { webhook_url: HOOK }, { value: { webhook_url: HOOK }, problems: [] }],
    ['pagerduty', { routing_key: KEY }, { value: { routing_key: KEY }, problems: [] }],
    [
      'email',
      {
        to: [
          'ops@example.com',
          'Ops.Team+alerts@Mail.Example.co.uk',
          'ops@EXAMPLE.com',
          `${'a'.repeat(64)}@example.com`,
        ],
      },
      {
        value: {
          to: ['ops@example.com', 'Ops.Team+alerts@mail.example.co.uk', `${'a'.repeat(64)}@example.com`],
        },
        problems: [],
      },
    ],
  ] as const)(
    'a good %s configuration is taken (e-mail recipients without repeats)',
    (type, config, expected) => {
      expect(checkChannelConfig(type, config, { policy: OPEN, smtp: true })).toEqual(expected);
    },
  );

  it.each([
    ['slack', null, 'config must be an object'],
    ['slack', ['https://x.example.com'], 'config must be an object'],
    ['slack', {}, 'config.webhook_url must be an http or https URL of at most 2048 characters'],
    [
      'slack',
      { webhook_url: 42 },
      'config.webhook_url must be an http or https URL of at most 2048 characters',
    ],
    [
      'slack',
      { webhook_url: `https://hooks.slack.com/${'x'.repeat(2030)}` },
      'config.webhook_url must be an http or https URL of at most 2048 characters',
    ],
    ['slack', { webhook_url: 'javascript:alert(1)' }, 'config.webhook_url must be an http or https URL'],
    [
      'slack',
      { webhook_url: 'http://[::ffff:169.254.169.254]/' },
      'config.webhook_url points to a cloud metadata address',
    ],
    [
      'pagerduty',
      { routing_key: 'a'.repeat(31) },
      'config.routing_key must be an integration key of 32 letters and digits',
    ],
    [
      'pagerduty',
      { routing_key: `${'a'.repeat(31)}-` },
      'config.routing_key must be an integration key of 32 letters and digits',
    ],
    [
      'pagerduty',
      { routing_key: '***' },
      'config.routing_key must be an integration key of 32 letters and digits',
    ],
    ['email', { to: 'ops@example.com' }, 'config.to must be an array of 1 to 20 e-mail addresses'],
    [
      'email',
      { to: Array.from({ length: 21 }, (_, i) => `o${i}@example.com`) },
      'config.to must be an array of 1 to 20 e-mail addresses',
    ],
    ['email', { to: ['ops@localhost'] }, 'config.to[0] must be an e-mail address (name@example.com)'],
    ['email', { to: ['Ops <ops@example.com>'] }, 'config.to[0] must be an e-mail address (name@example.com)'],
    [
      'email',
      { to: ['ops@example.com\r\nBcc: all@example.com'] },
      'config.to[0] must be an e-mail address (name@example.com)',
    ],
    [
      'email',
      { to: [`${'a'.repeat(65)}@example.com`] },
      'config.to[0] must be an e-mail address (name@example.com)',
    ],
    ['email', { to: ['a..b@example.com'] }, 'config.to[0] must be an e-mail address (name@example.com)'],
    ['email', { to: ['.a@example.com'] }, 'config.to[0] must be an e-mail address (name@example.com)'],
    ['email', { to: ['a.@example.com'] }, 'config.to[0] must be an e-mail address (name@example.com)'],
    [
      'email',
      { to: [`${'a'.repeat(250)}@example.com`] },
      'config.to[0] must be an e-mail address (name@example.com)',
    ],
  ] as const)('%s %j: refused, naming the field', (type, config, problem) => {
    expect(checkChannelConfig(type, config, { policy: OPEN, smtp: true })).toEqual({
      value: null,
      problems: [problem],
    });
  });

  it('a field of another type is named, with what the type itself lacks', () => {
    expect(checkChannelConfig('pagerduty', { webhook_url: HOOK }, { policy: OPEN, smtp: true })).toEqual({
      value: null,
      problems: [
        'config.webhook_url is not an allowed field for a pagerduty channel',
        'config.routing_key must be an integration key of 32 letters and digits',
      ],
    });
  });

  it('the webhook URL policy applies: allowed hosts and private addresses', () => {
    const check = (url: string) =>
      checkChannelConfig('slack', { webhook_url: url }, { policy: STRICT, smtp: true });
    expect([
      check(HOOK).problems,
      check('https://evil.example.com/x').problems,
      check('http://127.0.0.1/x').problems,
    ]).toEqual([
      [],
      ['config.webhook_url host is not in the allowed hosts list'],
      [
        'config.webhook_url points to a private or loopback address (set WEBHOOK_BLOCK_PRIVATE_IPS=false to allow private addresses)',
      ],
    ]);
  });

  it('without SMTP_URL no e-mail channel', () => {
    expect(checkChannelConfig('email', { to: ['ops@example.com'] }, { policy: OPEN, smtp: false })).toEqual({
      value: null,
      problems: ['config.to: e-mail channels need SMTP_URL set on the service'],
    });
  });

  it('a masked secret sent back stands for the stored one; a mask of another is refused', () => {
    const stored = { policy: STRICT, smtp: true };
    expect(
      checkChannelConfig(
        'slack',
        { webhook_url: 'https://hooks.slack.com/services/T0/B0/***' },
        {
          ...stored,
          stored: { webhook_url: HOOK },
        },
      ),
    ).toEqual({ value: { webhook_url: HOOK }, problems: [] });
    expect(
      checkChannelConfig(
        'slack',
        { webhook_url: 'https://hooks.slack.com/services/T0/B1/***' },
        {
          ...stored,
          stored: { webhook_url: HOOK },
        },
      ),
    ).toEqual({ value: null, problems: ['config.webhook_url is masked but stands for no stored URL'] });
    expect(
      checkChannelConfig('pagerduty', { routing_key: '***' }, { ...stored, stored: { routing_key: KEY } }),
    ).toEqual({
      value: { routing_key: KEY },
      problems: [],
    });
  });
});

describe('events and relayers of a channel', () => {
  it('a PagerDuty channel hears only what opens or closes an incident; null is those', () => {
    expect({
      refused: checkChannelEvents('pagerduty', ['relayer_low_balance', 'relayer_created']),
      slack: checkChannelEvents('slack', ['relayer_created']),
      stored: channelEvents('pagerduty', null),
      slackEvery: channelEvents('slack', null),
      ordered: channelEvents('slack', ['relayer_deleted', 'relayer_created', 'relayer_deleted']),
    }).toEqual({
      refused: [
        'events[1] must be one of: relayer_state_update, relayer_low_balance, relayer_balance_restored (a pagerduty channel)',
      ],
      slack: [],
      stored: [...PAGERDUTY_EVENTS],
      slackEvery: null,
      ordered: ['relayer_created', 'relayer_deleted'],
    });
  });

  it('every relayer is stored as ["*"], ids sorted without repeats', () => {
    expect([channelRelayerIds(null), channelRelayerIds(['*']), channelRelayerIds(['b', 'a', 'b'])]).toEqual([
      ['*'],
      ['*'],
      ['a', 'b'],
    ]);
  });
});
