import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/app-config.module';
import { WebhookSender, type AttemptResult } from '../../webhooks';
import type { PagerDutyConfig } from './channel-config';
import type { AlertMessage } from '../render/alert-message';
import { pagerDutyEvent, pagerDutyResolve } from '../render/pagerduty-event';

/**
 * docs/reference/alert-channels.md#5-pagerduty: Events API v2 to PAGERDUTY_EVENTS_URL. An event that
 * opens or closes an incident is one request; the test message triggers an `info` incident and
 * resolves it at once (two requests, one attempt).
 */
@Injectable()
export class PagerDutySender {
  private readonly url: string;
  private readonly source: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly http: WebhookSender,
  ) {
    this.url = config.alerts.pagerDutyEventsUrl;
    this.source =
      config.alerts.publicUrl === null ? 'relayer-service' : new URL(config.alerts.publicUrl).host;
  }

  async send({ routing_key }: PagerDutyConfig, message: AlertMessage): Promise<AttemptResult> {
    const event = pagerDutyEvent(message, routing_key, this.source);
    if (event === null) {
      // The API takes no such event for a PagerDuty channel (its `events`); one replayed from before is not sent.
      return {
        delivered: false,
        retryable: false,
        statusCode: null,
        error: `no incident for ${message.event}`,
        durationMs: 0,
      };
    }
    const sent = await this.post(event);
    if (!sent.delivered || message.event !== 'notification_test' || message.incident === null) return sent;
    const resolved = await this.post(pagerDutyResolve(routing_key, message.incident.dedupKey));
    return { ...resolved, durationMs: sent.durationMs + resolved.durationMs };
  }

  private post(event: object): Promise<AttemptResult> {
    return this.http.send(this.url, JSON.stringify(event), {});
  }
}
