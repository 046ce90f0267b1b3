import type { AlertMessage } from './alert-message';
import { clip } from './text-limits';

// Block Kit's limits, in characters. The button's text, `Open in console`, is far within its 75.
const HEADER_TEXT = 150;
const SECTION_FIELDS = 10;
const FIELD_TEXT = 2000;
const BUTTON_URL = 3000;
/** Each part of the context line: together far within an element's 3000. */
const CONTEXT_PART = 200;
/** Slack truncates a message's `text` far beyond this; past it, nobody reads a notification. */
const FALLBACK_TEXT = 3000;

export interface SlackPlainText {
  readonly type: 'plain_text';
  readonly text: string;
}

/** `verbatim`: a name like `@here` or `#general` stays text; only `<...>` written here is parsed. */
export interface SlackMrkdwn {
  readonly type: 'mrkdwn';
  readonly text: string;
  readonly verbatim: true;
}

export interface SlackButton {
  readonly type: 'button';
  readonly text: SlackPlainText;
  readonly url: string;
}

export type SlackBlock =
  | { readonly type: 'header'; readonly text: SlackPlainText }
  | { readonly type: 'section'; readonly fields: readonly SlackMrkdwn[] }
  | { readonly type: 'context'; readonly elements: readonly SlackMrkdwn[] }
  | { readonly type: 'actions'; readonly elements: readonly SlackButton[] };

/** The body of a Slack incoming webhook. */
export interface SlackMessage {
  /** What notifications and clients without blocks show: the title. */
  readonly text: string;
  readonly blocks: readonly SlackBlock[];
}

/**
 * A message with blocks: the title as a header, the fields, the time and event, and a button to
 * the console when there is a link. Everything of the message is text to Slack: mrkdwn is escaped
 * (`<!channel>` in a relayer name mentions nobody), the header is plain text.
 */
export function slackMessage(message: AlertMessage): SlackMessage {
  const blocks: SlackBlock[] = [{ type: 'header', text: plainText(clip(message.title, HEADER_TEXT)) }];
  const fields = message.fields.slice(0, SECTION_FIELDS).map(({ label, value }) => {
    const heading = `*${escapeMrkdwn(label)}*\n`;
    return mrkdwn(`${heading}${clip(value, FIELD_TEXT - heading.length, escapeMrkdwn)}`);
  });
  if (fields.length > 0) blocks.push({ type: 'section', fields });
  blocks.push({ type: 'context', elements: [mrkdwn(contextText(message))] });
  if (message.link !== null && message.link.length <= BUTTON_URL) {
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', text: plainText('Open in console'), url: message.link }],
    });
  }
  return { text: clip(message.title, FALLBACK_TEXT, escapeMrkdwn), blocks };
}

/** Slack's own escaping: the three characters that make links and mentions; no other is decoded. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The time in each reader's zone (Slack's date token, the timestamp as its fallback), the event and its id. */
function contextText({ occurredAt, event, eventId }: AlertMessage): string {
  const part = (text: string) => clip(text, CONTEXT_PART, escapeMrkdwn);
  const at = Date.parse(occurredAt);
  const when = Number.isNaN(at)
    ? part(occurredAt)
    : `<!date^${Math.floor(at / 1000)}^{date_short_pretty} at {time_secs}|${part(occurredAt)}>`;
  return `${when} · ${part(event)} · event ${part(eventId)}`;
}

function plainText(text: string): SlackPlainText {
  return { type: 'plain_text', text };
}

function mrkdwn(text: string): SlackMrkdwn {
  return { type: 'mrkdwn', text, verbatim: true };
}
