import type { AlertMessage } from './alert-message';
import { clip, oneLine } from './text-limits';

/** Long enough for any title of a sane relayer name; a header line stays readable in every client. */
const SUBJECT = 200;

export interface EmailMessage {
  /** `[relayer] <title>`, one line, at most 200 characters. */
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** A subject and the same message as plain text and as HTML, every value of it escaped there. */
export function emailMessage(message: AlertMessage): EmailMessage {
  const footer = `Event ${message.eventId} (${message.event}) at ${message.occurredAt}`;
  const text = [
    message.text,
    ...(message.link === null ? [] : ['', `Open in console: ${message.link}`]),
    '',
    footer,
  ].join('\n');
  const rows = message.fields.map(
    ({ label, value }) =>
      `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
  );
  const html = [
    '<!DOCTYPE html>',
    '<html>',
    '<head><meta charset="utf-8"></head>',
    '<body style="font-family: sans-serif">',
    `<h1 style="font-size: 18px">${escapeHtml(message.title)}</h1>`,
    ...(rows.length === 0 ? [] : ['<table cellpadding="4">', ...rows, '</table>']),
    ...(message.link === null ? [] : [`<p><a href="${escapeHtml(message.link)}">Open in console</a></p>`]),
    `<p style="color: #666666; font-size: 12px">${escapeHtml(footer)}</p>`,
    '</body>',
    '</html>',
  ].join('\n');
  return { subject: clip(oneLine(`[relayer] ${message.title}`), SUBJECT), text, html };
}

/** Text as HTML content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
