// The stand-ins of the alert channels' e2e tests (test/support: slack-stand-in, pagerduty-stand-in,
// smtp-receiver) proven against real requests, fetch and nodemailer. It sits here because the jest
// project `unit` takes test/console/*.spec.ts and no project takes specs in test/support.
import net from 'node:net';
import nodemailer from 'nodemailer';
import { ENQUEUE_PATH, PagerDutyStandIn } from '../support/pagerduty-stand-in';
import { SlackStandIn } from '../support/slack-stand-in';
import { SmtpReceiver } from '../support/smtp-receiver';

interface Answered {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  body: string;
}

async function send(
  url: string,
  body: unknown,
  {
    method = 'POST',
    contentType = 'application/json',
  }: { method?: string; contentType?: string | null } = {},
): Promise<Answered> {
  const response = await fetch(url, {
    method,
    headers: contentType === null ? {} : { 'content-type': contentType },
    body: method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
  };
}

describe('SlackStandIn', () => {
  const webhook = '/services/T0STANDIN/B0STANDIN/not-a-real-secret';
  const message = {
    text: 'payments-1 on mainnet is below its alert: 0.04 ETH < 0.05 ETH',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: 'Low balance: payments-1', emoji: true } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: '*payments-1* on mainnet is below its alert' },
        fields: [
          { type: 'mrkdwn', text: '*Balance*\n0.04 ETH' },
          { type: 'plain_text', text: 'Alert below 0.05 ETH' },
        ],
      },
      {
        type: 'context',
        elements: [
          { type: 'image', image_url: 'https://console.example.com/relayer.png', alt_text: 'relayer' },
          { type: 'mrkdwn', text: 'relayer_low_balance', verbatim: true },
        ],
      },
      { type: 'divider', block_id: 'rule' },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Open in the console' },
            url: 'https://console.example.com/relayers/payments-1',
            action_id: 'open',
            style: 'primary',
          },
        ],
      },
    ],
  };
  /** The message with the block at `index` replaced. */
  const withBlock = (index: number, block: unknown) => ({
    ...message,
    blocks: message.blocks.map((b, i) => (i === index ? block : b)),
  });
  let slack: SlackStandIn;

  beforeEach(async () => {
    slack = await new SlackStandIn().start();
  });

  afterEach(() => slack.close());

  it('answers a valid message with blocks 200 ok as text/plain and records it without violations', async () => {
    const answered = await send(slack.url(webhook), message);

    expect(answered).toEqual({
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      retryAfter: null,
      body: 'ok',
    });
    expect(slack.received).toHaveLength(1);
    expect(slack.received[0]).toMatchObject({
      method: 'POST',
      path: webhook,
      body: JSON.stringify(message),
      json: message,
      violations: [],
      answeredStatus: 200,
    });
    expect(slack.received[0].headers['content-type']).toBe('application/json');
    expect(slack.violations()).toEqual([]);
    expect(slack.url(webhook)).toBe(`http://127.0.0.1:${slack.port}${webhook}`);
  });

  it('takes every limit at its bound', async () => {
    const atLimits = {
      text: 't',
      blocks: [
        { type: 'header', block_id: 'b'.repeat(255), text: { type: 'plain_text', text: '🚨'.repeat(150) } },
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 's'.repeat(3000) },
          fields: Array.from({ length: 10 }, () => ({ type: 'mrkdwn', text: 'f'.repeat(2000) })),
        },
        { type: 'context', elements: Array.from({ length: 10 }, () => ({ type: 'plain_text', text: 'c' })) },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              text: { type: 'plain_text', text: 'b'.repeat(75) },
              url: `https://console.example.com/${'u'.repeat(2972)}`,
            },
          ],
        },
        ...Array.from({ length: 46 }, () => ({ type: 'divider' })),
      ],
    };

    expect((await send(slack.url(webhook), atLimits)).body).toBe('ok');
    expect(slack.violations()).toEqual([]);
  });

  it.each<[string, unknown, { method?: string; contentType?: string | null }, string, string[]]>([
    ['a body that is not JSON', '{"text":', {}, 'invalid_payload', ['body: not JSON']],
    ['a JSON array', [message], {}, 'invalid_payload', ['body: not a JSON object']],
    [
      'a form body',
      message,
      { contentType: 'application/x-www-form-urlencoded' },
      'invalid_payload',
      ['content-type: "application/x-www-form-urlencoded", not application/json'],
    ],
    [
      'a GET',
      undefined,
      { method: 'GET', contentType: null },
      'invalid_payload',
      ['method: GET, not POST', 'content-type: "", not application/json', 'body: not JSON'],
    ],
    [
      'no text beside the blocks',
      { blocks: message.blocks },
      {},
      'no_text',
      ['text: missing or blank (the fallback of a message with blocks)'],
    ],
    [
      'a blank text',
      { ...message, text: '  ' },
      {},
      'no_text',
      ['text: missing or blank (the fallback of a message with blocks)'],
    ],
    [
      'blocks that are not an array',
      { ...message, blocks: {} },
      {},
      'invalid_blocks',
      ['blocks: not an array'],
    ],
    [
      '51 blocks',
      { ...message, blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })) },
      {},
      'invalid_blocks',
      ['blocks: 51 blocks, at most 50'],
    ],
    [
      'a block type Slack does not have',
      withBlock(3, { type: 'banner' }),
      {},
      'invalid_blocks',
      ['blocks[3].type: "banner" is not a block type (header, section, context, divider, actions)'],
    ],
    [
      'an unknown key on a block',
      withBlock(3, { type: 'divider', text: 'rule' }),
      {},
      'invalid_blocks',
      ['blocks[3].text: not a field of a divider block'],
    ],
    [
      'a header of 151 characters',
      withBlock(0, { type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }),
      {},
      'invalid_blocks',
      ['blocks[0].text.text: 151 characters, at most 150'],
    ],
    [
      'a header in mrkdwn',
      withBlock(0, { type: 'header', text: { type: 'mrkdwn', text: '*Low*' } }),
      {},
      'invalid_blocks',
      ['blocks[0].text.type: "mrkdwn", not plain_text'],
    ],
    [
      'a block_id of 256 characters',
      withBlock(3, { type: 'divider', block_id: 'b'.repeat(256) }),
      {},
      'invalid_blocks',
      ['blocks[3].block_id: 256 characters, at most 255'],
    ],
    [
      'a section text of 3001 characters and an empty field',
      withBlock(1, {
        type: 'section',
        text: { type: 'mrkdwn', text: 's'.repeat(3001) },
        fields: [{ type: 'mrkdwn', text: '' }],
      }),
      {},
      'invalid_blocks',
      [
        'blocks[1].text.text: 3001 characters, at most 3000',
        'blocks[1].fields[0].text: not a non-empty string',
      ],
    ],
    [
      'a section of 11 fields, one of 2001 characters',
      withBlock(1, {
        type: 'section',
        fields: Array.from({ length: 11 }, (_, i) => ({
          type: 'plain_text',
          text: i === 10 ? 'f'.repeat(2001) : 'f',
        })),
      }),
      {},
      'invalid_blocks',
      ['blocks[1].fields: 11 items, not 1 to 10', 'blocks[1].fields[10].text: 2001 characters, at most 2000'],
    ],
    [
      'a section of neither text nor fields',
      withBlock(1, { type: 'section' }),
      {},
      'invalid_blocks',
      ['blocks[1]: neither text nor fields'],
    ],
    [
      'a context of no elements',
      withBlock(2, { type: 'context', elements: [] }),
      {},
      'invalid_blocks',
      ['blocks[2].elements: 0 items, not 1 to 10'],
    ],
    [
      'a context of 11 elements, an image without alt text',
      withBlock(2, {
        type: 'context',
        elements: [
          { type: 'image', image_url: 'https://console.example.com/relayer.png' },
          ...Array.from({ length: 10 }, () => ({ type: 'plain_text', text: 'c' })),
        ],
      }),
      {},
      'invalid_blocks',
      ['blocks[2].elements: 11 items, not 1 to 10', 'blocks[2].elements[0].alt_text: not a non-empty string'],
    ],
    [
      'a button of 76 characters to a URL of 3001 characters',
      withBlock(4, {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'b'.repeat(76) },
            url: `https://console.example.com/${'u'.repeat(2973)}`,
          },
        ],
      }),
      {},
      'invalid_blocks',
      [
        'blocks[4].elements[0].text.text: 76 characters, at most 75',
        'blocks[4].elements[0].url: 3001 characters, at most 3000',
      ],
    ],
    [
      'an actions block with a select menu',
      withBlock(4, { type: 'actions', elements: [{ type: 'static_select', options: [] }] }),
      {},
      'invalid_blocks',
      ['blocks[4].elements[0]: not a button element'],
    ],
  ])(
    'answers %s with a 400 naming the fault, and records the violations',
    async (_, body, init, error, violations) => {
      const answered = await send(slack.url(webhook), body, init);

      expect(answered).toEqual({
        status: 400,
        contentType: 'text/plain; charset=utf-8',
        retryAfter: null,
        body: error,
      });
      expect(slack.received[0].violations).toEqual(violations);
      expect(slack.violations()).toEqual(violations.map((violation) => ({ index: 0, violation })));
    },
  );

  it('answers a path that is no webhook 404 no_service, its body still checked', async () => {
    expect(await send(slack.url('/services/T0STANDIN/B0STANDIN'), message)).toEqual({
      status: 404,
      contentType: 'text/plain; charset=utf-8',
      retryAfter: null,
      body: 'no_service',
    });
    expect((await send(slack.url('/api/chat.postMessage'), { blocks: [] })).body).toBe('no_service');

    expect(slack.violations()).toEqual([
      { index: 1, violation: 'text: missing or blank (the fallback of a message with blocks)' },
    ]);
  });

  it('answers a path with its scripted replies in order, then as Slack; the others as Slack throughout', async () => {
    const other = '/services/T0STANDIN/B0OTHER/another-secret';
    slack.script(webhook, [{ status: 500 }, { status: 429, retryAfter: 1 }, { status: 410, body: 'gone' }]);

    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await send(slack.url(webhook), message));
    const elsewhere = await send(slack.url(other), message);

    expect(answers.map(({ status, retryAfter, body }) => ({ status, retryAfter, body }))).toEqual([
      { status: 500, retryAfter: null, body: 'rollup_error' },
      { status: 429, retryAfter: '1', body: '' },
      { status: 410, retryAfter: null, body: 'gone' },
      { status: 200, retryAfter: null, body: 'ok' },
    ]);
    expect(elsewhere.body).toBe('ok');
    expect(slack.received.map((request) => request.answeredStatus)).toEqual([500, 429, 410, 200, 200]);
    expect(slack.violations()).toEqual([]);
  });

  it('checks a scripted request as any other: a 500 hides no violation', async () => {
    slack.script(webhook, [{ status: 500 }]);

    expect((await send(slack.url(webhook), { blocks: [] })).status).toBe(500);

    expect(slack.violations()).toEqual([
      { index: 0, violation: 'text: missing or blank (the fallback of a message with blocks)' },
    ]);
  });

  it('waits for the requests to a path, and names the path without its secret when they do not come', async () => {
    const arrived = slack.waitFor(webhook, 2);
    await send(slack.url(webhook), message);
    await send(slack.url(webhook), message);

    expect((await arrived).map((request) => request.path)).toEqual([webhook, webhook]);
    await expect(slack.waitFor(webhook, 3, 100)).rejects.toThrow(
      'timed out after 100 ms waiting for 3 Slack messages at /services/T0STANDIN/B0STANDIN/***\n' +
        'received 2 of 3 Slack messages at /services/T0STANDIN/B0STANDIN/***',
    );
  });

  it('holds a `never` reply until the caller gives up, and a delayed one until its time', async () => {
    slack.script(webhook, [{ never: true }, { delayMs: 200 }]);

    await expect(
      fetch(slack.url(webhook), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(200),
      }),
    ).rejects.toThrow('The operation was aborted due to timeout');
    const started = Date.now();
    const delayed = await send(slack.url(webhook), message);

    expect(delayed.body).toBe('ok');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(slack.received.map((request) => request.answeredStatus)).toEqual([null, 200]);
  });
});

describe('PagerDutyStandIn', () => {
  const routingKey = '0123456789abcdef0123456789abcdef';
  const trigger = (dedupKey: string | undefined, summary = 'payments-1 on mainnet is below its alert') => ({
    routing_key: routingKey,
    event_action: 'trigger',
    ...(dedupKey === undefined ? {} : { dedup_key: dedupKey }),
    payload: {
      summary,
      source: 'relayer-service',
      severity: 'warning',
      timestamp: '2025-01-02T03:04:05.678Z',
      component: 'payments-1',
      group: 'mainnet',
      class: 'relayer_low_balance',
      custom_details: { balance: '0.04 ETH', alert: '0.05 ETH' },
    },
    links: [{ href: 'https://console.example.com/relayers/payments-1', text: 'Open in the console' }],
    client: 'Relayer service',
    client_url: 'https://console.example.com',
  });
  const resolve = (dedupKey: string, key = routingKey) => ({
    routing_key: key,
    event_action: 'resolve',
    dedup_key: dedupKey,
  });
  const accepted = (dedupKey: string) => ({
    status: 202,
    contentType: 'application/json',
    retryAfter: null,
    body: JSON.stringify({ status: 'success', message: 'Event processed', dedup_key: dedupKey }),
  });
  let pagerDuty: PagerDutyStandIn;
  let enqueue: string;

  beforeEach(async () => {
    pagerDuty = await new PagerDutyStandIn().start();
    enqueue = pagerDuty.enqueueUrl();
  });

  afterEach(() => pagerDuty.close());

  it('opens one incident with a trigger and resolves it with a resolve of its dedup key', async () => {
    expect(await send(enqueue, trigger('relayer-1:low_balance'))).toEqual(accepted('relayer-1:low_balance'));
    expect(await send(enqueue, resolve('relayer-1:low_balance'))).toEqual(accepted('relayer-1:low_balance'));

    expect(pagerDuty.incidents()).toEqual([
      {
        routingKey,
        dedupKey: 'relayer-1:low_balance',
        status: 'resolved',
        summary: 'payments-1 on mainnet is below its alert',
        severity: 'warning',
        triggers: 1,
        links: [{ href: 'https://console.example.com/relayers/payments-1', text: 'Open in the console' }],
      },
    ]);
    expect(pagerDuty.events.map((event) => event.answeredStatus)).toEqual([202, 202]);
    expect(pagerDuty.violations()).toEqual([]);
    expect(enqueue).toBe(`http://127.0.0.1:${pagerDuty.port}${ENQUEUE_PATH}`);
  });

  it('folds a trigger into the open incident of its dedup key, and opens a new one once it is resolved', async () => {
    await send(enqueue, trigger('relayer-1:disabled', 'first'));
    await send(enqueue, trigger('relayer-1:disabled', 'again'));
    await send(enqueue, resolve('relayer-1:disabled'));
    await send(enqueue, trigger('relayer-1:disabled', 'after the resolve'));

    expect(
      pagerDuty
        .incidents()
        .map(({ dedupKey, status, summary, triggers }) => ({ dedupKey, status, summary, triggers })),
    ).toEqual([
      { dedupKey: 'relayer-1:disabled', status: 'resolved', summary: 'first', triggers: 2 },
      { dedupKey: 'relayer-1:disabled', status: 'triggered', summary: 'after the resolve', triggers: 1 },
    ]);
  });

  it('keeps the incidents of two routing keys apart: a resolve through the other key drops', async () => {
    const otherKey = 'fedcba9876543210fedcba9876543210';
    await send(enqueue, trigger('relayer-1:disabled'));
    await send(enqueue, { ...trigger('relayer-1:disabled'), routing_key: otherKey });
    await send(enqueue, resolve('relayer-1:disabled', otherKey));

    expect(pagerDuty.incidents().map(({ routingKey: key, status }) => ({ key, status }))).toEqual([
      { key: routingKey, status: 'triggered' },
      { key: otherKey, status: 'resolved' },
    ]);
  });

  it('generates the dedup key of a trigger sent without one and answers it', async () => {
    const answered = await send(enqueue, trigger(undefined));

    const { dedup_key: dedupKey } = JSON.parse(answered.body) as { dedup_key: string };
    expect(dedupKey).toMatch(/^[0-9a-f]{32}$/);
    expect(answered).toEqual(accepted(dedupKey));
    expect(pagerDuty.incidents().map((incident) => incident.dedupKey)).toEqual([dedupKey]);
  });

  it('accepts a resolve and an acknowledge of no open incident and changes nothing', async () => {
    expect(await send(enqueue, resolve('relayer-9:low_balance'))).toEqual(accepted('relayer-9:low_balance'));
    expect(await send(enqueue, { ...resolve('relayer-9:low_balance'), event_action: 'acknowledge' })).toEqual(
      accepted('relayer-9:low_balance'),
    );

    expect(pagerDuty.incidents()).toEqual([]);
    expect(pagerDuty.violations()).toEqual([]);
  });

  it.each<[string, unknown, string[]]>([
    ['a body that is not JSON', '{"routing_key":', ['body: not JSON']],
    [
      'a routing key of 31 characters',
      { ...trigger('k'), routing_key: routingKey.slice(1) },
      ['routing_key: 31 characters, not 32'],
    ],
    [
      'an unknown action and an unknown top-level key',
      { ...trigger('k'), event_action: 'close', incident_key: 'k' },
      ['incident_key: not a field of the event', 'event_action: "close", not trigger, acknowledge, resolve'],
    ],
    [
      'a resolve without a dedup key',
      { routing_key: routingKey, event_action: 'resolve' },
      ['dedup_key: missing, required to resolve'],
    ],
    ['a dedup key of 256 characters', trigger('d'.repeat(256)), ['dedup_key: 256 characters, at most 255']],
    [
      'a trigger without a payload',
      { routing_key: routingKey, event_action: 'trigger', dedup_key: 'k' },
      ['payload: missing, required to trigger'],
    ],
    [
      'a payload that breaks each rule',
      {
        ...trigger('k'),
        payload: {
          summary: 's'.repeat(1025),
          source: '',
          severity: 'fatal',
          timestamp: 'yesterday',
          component: 7,
          custom_details: ['balance'],
          customDetails: {},
        },
      },
      [
        'payload.customDetails: not a field of the payload',
        'payload.summary: 1025 characters, at most 1024',
        'payload.source: not a non-empty string',
        'payload.severity: "fatal", not critical, error, warning, info',
        'payload.timestamp: "yesterday", not an ISO 8601 date and time',
        'payload.component: not a string',
        'payload.custom_details: not an object',
      ],
    ],
    [
      'links and images out of shape',
      {
        ...trigger('k'),
        links: [{ text: 'no href' }, 'https://console.example.com'],
        images: [{ src: 'http://console.example.com/chart.png', title: 'chart' }],
        client_url: 'console',
      },
      [
        'links[0].href: not a URL',
        'links[1]: not an object',
        'images[0].title: not a field of an image',
        'images[0].src: not served over HTTPS',
        'client_url: not a URL',
      ],
    ],
  ])('answers %s 400 invalid event, naming the errors, and opens no incident', async (_, body, errors) => {
    const answered = await send(enqueue, body);

    expect(answered).toEqual({
      status: 400,
      contentType: 'application/json',
      retryAfter: null,
      body: JSON.stringify({ status: 'invalid event', message: 'Event object is invalid', errors }),
    });
    expect(answered.body).not.toContain(routingKey);
    expect(pagerDuty.violations()).toEqual(errors.map((violation) => ({ index: 0, violation })));
    expect(pagerDuty.incidents()).toEqual([]);
  });

  it('takes a summary of 1024 characters and a dedup key of 255', async () => {
    expect(await send(enqueue, trigger('d'.repeat(255), 's'.repeat(1024)))).toEqual(
      accepted('d'.repeat(255)),
    );

    expect(pagerDuty.violations()).toEqual([]);
  });

  it('takes a timestamp with an offset as PagerDuty writes it, without a colon', async () => {
    const event = trigger('k');
    await send(enqueue, {
      ...event,
      payload: { ...event.payload, timestamp: '2015-07-17T08:42:58.315+0000' },
    });

    expect(pagerDuty.violations()).toEqual([]);
  });

  it('answers another path 404 and records it as a violation', async () => {
    const answered = await send(pagerDuty.url('/v2/change/enqueue'), trigger('k'));

    expect(answered).toEqual({
      status: 404,
      contentType: 'application/json',
      retryAfter: null,
      body: JSON.stringify({ status: 'not found' }),
    });
    expect(pagerDuty.violations()).toEqual([
      { index: 0, violation: 'path: /v2/change/enqueue, not /v2/enqueue' },
    ]);
    expect(pagerDuty.incidents()).toEqual([]);
  });

  it('applies no event answered with a scripted 500 or 429, and the next one as PagerDuty', async () => {
    pagerDuty.script([{ status: 500 }, { status: 429, retryAfter: 2 }]);

    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await send(enqueue, trigger('relayer-1:low_balance')));

    expect(answers.map(({ status, retryAfter, body }) => ({ status, retryAfter, body }))).toEqual([
      { status: 500, retryAfter: null, body: '' },
      { status: 429, retryAfter: '2', body: '' },
      { status: 202, retryAfter: null, body: accepted('relayer-1:low_balance').body },
    ]);
    expect(pagerDuty.incidents().map(({ status, triggers }) => ({ status, triggers }))).toEqual([
      { status: 'triggered', triggers: 1 },
    ]);
  });

  it('waits for events and for an incident to reach a status', async () => {
    const events = pagerDuty.waitFor(2);
    const resolved = pagerDuty.waitForIncident('relayer-1:low_balance', 'resolved');
    await send(enqueue, trigger('relayer-1:low_balance'));
    await send(enqueue, resolve('relayer-1:low_balance'));

    expect((await events).map((event) => (event.json as { event_action: string }).event_action)).toEqual([
      'trigger',
      'resolve',
    ]);
    expect((await resolved).status).toBe('resolved');
    await expect(pagerDuty.waitForIncident('relayer-2:disabled', 'triggered', 100)).rejects.toThrow(
      'timed out after 100 ms waiting for the incident relayer-2:disabled triggered\nthe incident is not opened',
    );
  });
});

describe('SmtpReceiver', () => {
  const credentials = { user: 'alerts@relayer.test', pass: 'p@ss:word/1' };
  const mail = {
    from: 'Relayer alerts <alerts@relayer.test>',
    to: 'ops@example.com, oncall@example.com',
    subject: 'payments-1 on mainnet is below its alert',
    text: 'payments-1 on mainnet is below its alert: 0.04 ETH < 0.05 ETH',
    html: '<p><b>payments-1</b> on mainnet is below its alert: 0.04 ETH &lt; 0.05 ETH</p>',
  };
  let smtp: SmtpReceiver;

  afterEach(() => smtp.close());

  describe('with credentials', () => {
    beforeEach(async () => {
      smtp = await new SmtpReceiver(credentials).start();
    });

    it('takes a message from nodemailer after AUTH and records envelope, headers and bodies without violations', async () => {
      expect(smtp.url()).toBe(`smtp://alerts%40relayer.test:p%40ss%3Aword%2F1@127.0.0.1:${smtp.port}`);

      const info = await nodemailer.createTransport(smtp.url()).sendMail(mail);

      expect(info.accepted).toEqual(['ops@example.com', 'oncall@example.com']);
      expect(info.response).toBe('250 Message accepted');
      expect(smtp.messages).toHaveLength(1);
      const [received] = smtp.messages;
      expect(received).toMatchObject({
        from: 'alerts@relayer.test',
        to: ['ops@example.com', 'oncall@example.com'],
        user: 'alerts@relayer.test',
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        violations: [],
      });
      expect(received.headers.get('message-id')).toBe(info.messageId);
      expect(received.raw).toContain('Content-Type: multipart/alternative;');
      expect(smtp.errors).toEqual([]);
    });

    it('answers wrong credentials 535, never repeating them, and takes no message', async () => {
      const sending = nodemailer.createTransport(smtp.url({ pass: 'wrong-password' })).sendMail(mail);

      await expect(sending).rejects.toMatchObject({
        code: 'EAUTH',
        responseCode: 535,
        response: '535 Authentication credentials invalid',
      });
      expect(smtp.authFailures).toBe(1);
      expect(smtp.messages).toEqual([]);
    });

    it('offers AUTH PLAIN and LOGIN in clear text and no STARTTLS', async () => {
      expect(await ehlo(smtp.port)).toEqual([
        '250-smtp.stand-in.test Nice to meet you, [127.0.0.1]',
        '250-PIPELINING',
        '250-8BITMIME',
        '250-SMTPUTF8',
        '250 AUTH PLAIN LOGIN',
      ]);
    });

    it('refuses the next messages as scripted, at RCPT and at DATA, then takes them again', async () => {
      const transport = nodemailer.createTransport(smtp.url());
      smtp.refuse({ stage: 'rcpt', code: 451, count: 2 });
      smtp.refuse({ stage: 'data', code: 550 });

      for (let i = 0; i < 2; i++) {
        await expect(transport.sendMail(mail)).rejects.toMatchObject({
          code: 'EENVELOPE',
          responseCode: 451,
        });
      }
      await expect(transport.sendMail(mail)).rejects.toMatchObject({
        code: 'EMESSAGE',
        responseCode: 550,
        response: '550 Requested action not taken: mailbox unavailable',
      });
      await transport.sendMail(mail);

      const refused = { from: 'alerts@relayer.test', to: ['ops@example.com', 'oncall@example.com'] };
      expect(smtp.refused).toEqual([
        { stage: 'rcpt', code: 451, ...refused },
        { stage: 'rcpt', code: 451, ...refused },
        { stage: 'data', code: 550, ...refused },
      ]);
      expect(smtp.messages).toHaveLength(1);
    });

    it('waits for messages', async () => {
      const arrived = smtp.waitFor(1);
      await nodemailer.createTransport(smtp.url()).sendMail(mail);

      expect((await arrived).map((message) => message.subject)).toEqual([mail.subject]);
      await expect(smtp.waitFor(2, 100)).rejects.toThrow(
        'timed out after 100 ms waiting for 2 e-mails\nreceived 1 of 2 e-mails, refused 0',
      );
    });
  });

  describe('without credentials', () => {
    beforeEach(async () => {
      smtp = await new SmtpReceiver().start();
    });

    it('offers no AUTH and takes a message without it', async () => {
      expect(smtp.url()).toBe(`smtp://127.0.0.1:${smtp.port}`);
      expect(await ehlo(smtp.port)).toEqual([
        '250-smtp.stand-in.test Nice to meet you, [127.0.0.1]',
        '250-PIPELINING',
        '250-8BITMIME',
        '250 SMTPUTF8',
      ]);

      await nodemailer.createTransport(smtp.url()).sendMail(mail);

      expect(smtp.messages.map(({ user, violations }) => ({ user, violations }))).toEqual([
        { user: null, violations: [] },
      ]);
    });

    it('finds a text-only message, and a From that is not the envelope sender', async () => {
      const transport = nodemailer.createTransport(smtp.url());
      await transport.sendMail({ ...mail, html: undefined });
      await transport.sendMail({
        ...mail,
        envelope: { from: 'bounces@relayer.test', to: 'ops@example.com' },
      });
      await transport.sendMail({ ...mail, text: undefined });

      expect(smtp.messages.map((message) => message.violations)).toEqual([
        ['Content-Type: text/plain, not multipart/alternative'],
        ['From: ["alerts@relayer.test"], not the envelope sender "bounces@relayer.test"'],
        ['Content-Type: text/html, not multipart/alternative'],
      ]);
    });

    it('finds a message without Message-ID, Date and Subject, and alternatives without HTML', async () => {
      const raw = [
        'From: alerts@relayer.test',
        'To: ops@example.com',
        'MIME-Version: 1.0',
        'Content-Type: multipart/alternative;',
        ' boundary="alt-1"',
        '',
        '--alt-1',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'below its alert',
        '--alt-1',
        'Content-Type: text/markdown',
        '',
        '*below* its alert',
        '--alt-1--',
        '',
      ].join('\r\n');

      await nodemailer
        .createTransport(smtp.url())
        .sendMail({ envelope: { from: 'alerts@relayer.test', to: 'ops@example.com' }, raw });

      expect(smtp.messages[0].violations).toEqual([
        'Message-ID: missing',
        'Date: missing',
        'Subject: missing or empty',
        'parts: text/plain, text/markdown, not a text/plain and a text/html part',
      ]);
    });
  });
});

/** The server's answer to EHLO, line by line, over a bare socket. */
async function ehlo(port: number): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  const until = (done: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        socket.off('data', read);
        resolve();
      };
      const read = (chunk: Buffer) => {
        received += chunk.toString('utf8');
        check();
      };
      socket.on('data', read);
      socket.once('error', reject);
      check();
    });
  try {
    await until(() => received.endsWith('\r\n'));
    received = '';
    socket.write('EHLO client.test\r\n');
    await until(() => /(^|\r\n)250 [^\r\n]*\r\n$/.test(received));
    return received.trimEnd().split('\r\n');
  } finally {
    socket.end('QUIT\r\n');
  }
}
