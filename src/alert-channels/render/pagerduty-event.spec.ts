import {
  EVENT_ID,
  OCCURRED_AT,
  eventBody,
  relayerEventBody,
  relayerResponse,
} from '../../../test/factories/event-bodies';
import { renderAlert, type AlertMessage, type RenderContext } from './alert-message';
import { pagerDutyEvent, pagerDutyResolve, type PagerDutyEvent } from './pagerduty-event';

const PUBLIC_URL = 'https://relayers.example.com';
const ROUTING_KEY = 'R0ut1ngKeyOfThirtyTwoCharacters0';
const SOURCE = 'relayers.example.com';

function render(body: string, publicUrl: string | null = PUBLIC_URL): AlertMessage {
  const context: RenderContext = {
    publicUrl,
    channelId: 'ch-pager',
    unitOf: () => ({ symbol: 'SOL', decimals: 9 }),
  };
  return renderAlert(body, context);
}

const eventOf = (body: string, publicUrl?: string | null) =>
  pagerDutyEvent(render(body, publicUrl), ROUTING_KEY, SOURCE);

const RELAYER = relayerResponse({ network: 'devnet', network_type: 'solana', address: 'So1anaAddre55' });
const RELAYER_DETAILS = {
  Relayer: 'payments-1',
  'Relayer ID': 'rl-payments-1',
  Network: 'devnet (solana)',
  Address: 'So1anaAddre55',
};
const LINKS = [{ href: `${PUBLIC_URL}/console/#/relayers/rl-payments-1`, text: 'Open in console' }];

describe('pagerDutyEvent', () => {
  it('triggers <relayer id>:low_balance for a low balance, with the console link', () => {
    const body = relayerEventBody('relayer_low_balance', { balance: '1', threshold: '20000000000' }, RELAYER);
    expect(eventOf(body)).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: 'rl-payments-1:low_balance',
      payload: {
        summary: 'payments-1 on devnet is below its alert: 0.000000001 SOL < 20 SOL',
        source: SOURCE,
        severity: 'warning',
        timestamp: OCCURRED_AT,
        component: 'rl-payments-1',
        group: 'devnet',
        class: 'relayer_low_balance',
        custom_details: { ...RELAYER_DETAILS, Balance: '0.000000001 SOL', 'Alert below': '20 SOL' },
      },
      links: LINKS,
    } satisfies PagerDutyEvent);
  });

  it('triggers <relayer id>:disabled, critical, for a disable', () => {
    const body = relayerEventBody('relayer_disabled', { disable_reason: 'Nonce out of sync' }, RELAYER);
    expect(eventOf(body)).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: 'rl-payments-1:disabled',
      payload: {
        summary: 'payments-1 on devnet was disabled: Nonce out of sync',
        source: SOURCE,
        severity: 'critical',
        timestamp: OCCURRED_AT,
        component: 'rl-payments-1',
        group: 'devnet',
        class: 'relayer_disabled',
        custom_details: { ...RELAYER_DETAILS, Reason: 'Nonce out of sync' },
      },
      links: LINKS,
    });
  });

  it.each([
    ['relayer_balance_restored', { balance: '3', threshold: '2' }, 'rl-payments-1:low_balance'],
    ['relayer_enabled', { retry_count: 4 }, 'rl-payments-1:disabled'],
  ])('resolves the incident on %s, and says no more', (payloadType, more, dedupKey) => {
    expect(eventOf(relayerEventBody(payloadType, more, RELAYER))).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'resolve',
      dedup_key: dedupKey,
    });
  });

  it('triggers an info event of its own for the test message, linking to the console', () => {
    const body = eventBody('notification_test', { payload_type: 'notification_test' });
    expect(eventOf(body)).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: `test:ch-pager:${EVENT_ID}`,
      payload: {
        summary: 'Test message for alert channel ch-pager',
        source: SOURCE,
        severity: 'info',
        timestamp: OCCURRED_AT,
        class: 'notification_test',
        custom_details: { Channel: 'ch-pager' },
      },
      links: [{ href: `${PUBLIC_URL}/console/`, text: 'Open in console' }],
    });
  });

  it.each([
    ['relayer_created', relayerEventBody('relayer_created', {}, RELAYER)],
    ['relayer_updated', relayerEventBody('relayer_updated', { changed: ['name'] }, RELAYER)],
    ['relayer_deleted', relayerEventBody('relayer_deleted', {}, RELAYER)],
    ['an unknown payload_type', relayerEventBody('relayer_renamed', {}, RELAYER)],
  ])('has no event for %s: it concerns no incident', (_case, body) => {
    expect(eventOf(body)).toBeNull();
  });

  it('has no links without a public URL', () => {
    const body = relayerEventBody('relayer_disabled', { disable_reason: 'x' }, RELAYER);
    expect(eventOf(body, null)).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: 'rl-payments-1:disabled',
      payload: {
        summary: 'payments-1 on devnet was disabled: x',
        source: SOURCE,
        severity: 'critical',
        timestamp: OCCURRED_AT,
        component: 'rl-payments-1',
        group: 'devnet',
        class: 'relayer_disabled',
        custom_details: { ...RELAYER_DETAILS, Reason: 'x' },
      },
    });
  });

  it('clips the summary to 1024 characters and keeps a hostile name as it is (PagerDuty shows text)', () => {
    const name = `<script>alert(1)</script> *bold* <!channel> & ${'n'.repeat(1100)}`;
    const relayer = relayerResponse({
      name,
      network: 'devnet',
      network_type: 'solana',
      address: 'So1anaAddre55',
    });
    const event = eventOf(relayerEventBody('relayer_disabled', { disable_reason: 'x' }, relayer));
    const summary = `<script>alert(1)</script> *bold* <!channel> & ${'n'.repeat(1023 - 46)}…`;
    expect(summary).toHaveLength(1024);
    expect(event).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: 'rl-payments-1:disabled',
      payload: {
        summary,
        source: SOURCE,
        severity: 'critical',
        timestamp: OCCURRED_AT,
        component: 'rl-payments-1',
        group: 'devnet',
        class: 'relayer_disabled',
        custom_details: { ...RELAYER_DETAILS, Relayer: name, Reason: 'x' },
      },
      links: LINKS,
    });
  });
});

describe('pagerDutyResolve', () => {
  it('resolves the incident of a dedup key (the test message’s, right after its trigger)', () => {
    expect(pagerDutyResolve(ROUTING_KEY, `test:ch-pager:${EVENT_ID}`)).toEqual({
      routing_key: ROUTING_KEY,
      event_action: 'resolve',
      dedup_key: `test:ch-pager:${EVENT_ID}`,
    });
  });
});
