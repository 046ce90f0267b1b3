import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { withoutUrlSecrets } from '../../common/security/url-masking';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/app-config.module';
import type { AttemptResult } from '../../webhooks';
import type { EmailConfig } from './channel-config';
import type { AlertMessage } from '../render/alert-message';
import { emailMessage } from '../render/email-message';

/** The reply code of an SMTP server that took the message: the attempt's status_code. */
const ACCEPTED = 250;
const MAX_ERROR = 300;

/**
 * docs/reference/alert-channels.md#6-email: one message with a plain-text and an HTML part, through
 * SMTP_URL (nodemailer), from ALERT_EMAIL_FROM. A refusal the server calls temporary (4xx) or a
 * connection that fails is retried; a permanent one (5xx) ends the delivery failed. SMTP_URL holds
 * credentials: no error text repeats it.
 */
@Injectable()
export class EmailSender implements OnApplicationShutdown {
  private readonly transport: Transporter | null;
  private readonly from: string | null;
  private readonly smtpUrl: string | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const { smtpUrl, emailFrom } = config.alerts;
    const timeout = config.webhooks.timeoutMs;
    this.transport =
      smtpUrl === null
        ? null
        : createTransport({
            url: smtpUrl,
            connectionTimeout: timeout,
            greetingTimeout: timeout,
            socketTimeout: timeout,
          });
    this.from = emailFrom;
    this.smtpUrl = smtpUrl;
  }

  /** Whether SMTP_URL is set: without it, no e-mail channel can be created. */
  get configured(): boolean {
    return this.transport !== null;
  }

  async send({ to }: EmailConfig, message: AlertMessage): Promise<AttemptResult> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    if (this.transport === null || this.from === null) {
      return {
        delivered: false,
        retryable: false,
        statusCode: null,
        error: 'SMTP_URL is not set',
        durationMs: 0,
      };
    }
    const { subject, text, html } = emailMessage(message);
    try {
      await this.transport.sendMail({ from: this.from, to: [...to], subject, text, html });
      return { delivered: true, retryable: false, statusCode: ACCEPTED, error: null, durationMs: took() };
    } catch (error) {
      const failure = describeFailure(error);
      // A server's reply may quote the login: the log and the API see it without (withoutUrlSecrets).
      const shown = this.smtpUrl === null ? failure.error : withoutUrlSecrets(failure.error, this.smtpUrl);
      return { delivered: false, ...failure, error: shown, durationMs: took() };
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}

function describeFailure(
  error: unknown,
): Pick<AttemptResult, 'retryable' | 'statusCode'> & { error: string } {
  const { responseCode, code } = error as { responseCode?: number; code?: string };
  if (typeof responseCode === 'number') {
    const reply = (error as { response?: string }).response ?? '';
    return {
      retryable: responseCode < 500,
      statusCode: responseCode,
      error: `SMTP ${reply || responseCode}`.slice(0, MAX_ERROR),
    };
  }
  if (code === 'ETIMEDOUT') return { retryable: true, statusCode: null, error: 'timed out' };
  if (code === 'EAUTH') return { retryable: true, statusCode: null, error: 'SMTP authentication failed' };
  return { retryable: true, statusCode: null, error: `SMTP error${code ? ` (${code})` : ''}` };
}
