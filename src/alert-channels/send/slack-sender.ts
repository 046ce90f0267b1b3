import { Injectable } from '@nestjs/common';
import { WebhookSender, type AttemptResult } from '../../webhooks';
import type { SlackConfig } from './channel-config';
import type { AlertMessage } from '../render/alert-message';
import { slackMessage } from '../render/slack-message';

/**
 * docs/reference/alert-channels.md#4-slack: a message with blocks POSTed to the channel's incoming
 * webhook, through the webhooks' sender (the URL policy at send time, timeouts, what is retried).
 */
@Injectable()
export class SlackSender {
  constructor(private readonly http: WebhookSender) {}

  send({ webhook_url }: SlackConfig, message: AlertMessage): Promise<AttemptResult> {
    return this.http.send(webhook_url, JSON.stringify(slackMessage(message)), {});
  }
}
