import { Inject, Injectable, Logger } from '@nestjs/common';
import { Catalogue } from '../../catalogue';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/app-config.module';
import type { AlertChannelType, DeliveryTarget } from '../../notifications';
import type { AttemptResult, ChannelSender } from '../../webhooks';
import { channelAddress } from './channel-config';
import { renderAlert, type NativeUnit } from '../render/alert-message';
import { EmailSender } from './email-sender';
import { PagerDutySender } from './pager-duty-sender';
import { SlackSender } from './slack-sender';

/** The native unit of a network type, for a network whose configuration names no symbol. */
const NATIVE: Record<string, NativeUnit> = {
  evm: { symbol: 'ETH', decimals: 18 },
  solana: { symbol: 'SOL', decimals: 9 },
  stellar: { symbol: 'XLM', decimals: 7 },
};

/**
 * docs/reference/alert-channels.md#7-one-machinery: the dispatcher hands an alert channel's delivery
 * here; its event body is rendered for people (render/) and sent by the channel type's sender.
 */
@Injectable()
export class AlertSenders implements ChannelSender {
  private readonly logger = new Logger(AlertSenders.name);
  private readonly publicUrl: string | null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly catalogue: Catalogue,
    private readonly slack: SlackSender,
    private readonly pagerDuty: PagerDutySender,
    private readonly email: EmailSender,
  ) {
    this.publicUrl = config.alerts.publicUrl;
  }

  /** Resolves to the attempt's result, never rejects (as WebhookSender.send). */
  async send(channelId: string, target: DeliveryTarget, body: string): Promise<AttemptResult> {
    try {
      return await this.sendTo(channelId, target, body);
    } catch (error) {
      this.logger.warn({ err: error }, `alert channel ${channelId}: the delivery could not be rendered`);
      return { delivered: false, retryable: false, statusCode: null, error: 'not rendered', durationMs: 0 };
    }
  }

  private sendTo(channelId: string, target: DeliveryTarget, body: string): Promise<AttemptResult> {
    const address = channelAddress(target.type as AlertChannelType, target.channelConfig);
    const message = renderAlert(body, {
      publicUrl: this.publicUrl,
      channelId,
      unitOf: (networkType, network) => this.unitOf(networkType, network),
    });
    switch (address.type) {
      case 'slack':
        return this.slack.send(address.config, message);
      case 'pagerduty':
        return this.pagerDuty.send(address.config, message);
      case 'email':
        return this.email.send(address.config, message);
    }
  }

  private unitOf(networkType: string, network: string): NativeUnit {
    const native = NATIVE[networkType] ?? { symbol: '', decimals: 0 };
    const type = networkType as 'evm' | 'solana' | 'stellar';
    const symbol = NATIVE[networkType] ? this.catalogue.findNetwork(type, network)?.symbol : undefined;
    return { symbol: symbol ?? native.symbol, decimals: native.decimals };
  }
}

export const ALERT_SENDERS = [AlertSenders, SlackSender, PagerDutySender, EmailSender];
