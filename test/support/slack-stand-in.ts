// Slack incoming webhooks, checked on every request against Slack's documentation:
// - the request and the answers: https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks
//   (a JSON POST; 200 `ok`, 400 invalid_payload, 404 no_service, as text/plain) and
//   https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks (the bodies of 403, 404, 410, 500);
// - the blocks and their limits: https://docs.slack.dev/reference/block-kit/blocks/header-block, section-block,
//   context-block, divider-block, actions-block; https://docs.slack.dev/reference/block-kit/composition-objects/text-object;
//   https://docs.slack.dev/reference/block-kit/block-elements/button-element and image-element.
// Stricter than Slack on one point: `text` is required beside blocks (Slack takes blocks alone), since
// the service always sends it as the notification fallback; its absence is answered `no_text`, the
// body Slack has used for a message without text (it now also answers
// `missing_text_or_fallback_or_attachments`). Bad blocks are answered `invalid_blocks`, as chat.postMessage names them.
import {
  ProviderStandIn,
  type Answer,
  type IncomingRequest,
  type ProviderRequest,
  type ScriptedReply,
  type Verdict,
} from './provider-stand-in';

/** `/services/<team>/<bot>/<secret>`: any such path is a webhook. */
const WEBHOOK_PATH = /^\/services\/[^/]+\/[^/]+\/[^/]+$/;
const MAX_BLOCKS = 50;
/** Bodies Slack documents for a status, sent with a scripted status. */
const STATUS_BODIES: Readonly<Record<number, string>> = {
  400: 'invalid_payload',
  403: 'action_prohibited',
  404: 'channel_not_found',
  410: 'channel_is_archived',
  500: 'rollup_error',
};

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Characters by code point, an emoji one, as a reader counts them (Slack does not say how it counts). */
const characters = (text: string) => [...text].length;

/** The secret part of a webhook path, hidden from failure messages. */
export const maskWebhookPath = (path: string) => path.replace(/^(\/services\/[^/]+\/[^/]+\/).+$/, '$1***');

/**
 * Slack's incoming webhooks on a loopback port: every request is checked against Slack's
 * documented format (`violations()`), answered as Slack would, or with a scripted reply per path.
 */
export class SlackStandIn extends ProviderStandIn {
  /** The replies for the next requests to `path`, in order; afterwards Slack's own. */
  script(path: string, replies: ScriptedReply[]): void {
    this.scriptPath(path, replies);
  }

  to(path: string): ProviderRequest[] {
    return this.received.filter((request) => request.path === path);
  }

  /** Polls until `count` requests reached `path` (deadline 15 s). */
  waitFor(path: string, count: number, timeoutMs = 15_000): Promise<ProviderRequest[]> {
    return this.waitForRequests(
      `Slack messages at ${maskWebhookPath(path)}`,
      (request) => request.path === path,
      count,
      timeoutMs,
    );
  }

  protected judge({ method, pathname, headers, body }: IncomingRequest): Verdict {
    const payload: string[] = [];
    const text: string[] = [];
    const blocks: string[] = [];
    if (method !== 'POST') payload.push(`method: ${method}, not POST`);
    const contentType = headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(contentType)) {
      payload.push(`content-type: "${contentType}", not application/json`);
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      payload.push('body: not JSON');
    }
    if (json !== undefined && !isObject(json)) payload.push('body: not a JSON object');
    if (isObject(json)) {
      if (typeof json.text !== 'string' || json.text.trim() === '') {
        text.push('text: missing or blank (the fallback of a message with blocks)');
      }
      if (json.blocks !== undefined) checkBlocks(json.blocks, blocks);
    }
    const violations = [...payload, ...text, ...blocks];
    const answer = !WEBHOOK_PATH.test(pathname)
      ? plain(404, 'no_service')
      : payload.length > 0
        ? plain(400, 'invalid_payload')
        : text.length > 0
          ? plain(400, 'no_text')
          : blocks.length > 0
            ? plain(400, 'invalid_blocks')
            : plain(200, 'ok');
    return { json, violations, answer };
  }

  protected scriptedAnswer(status: number): Answer {
    return plain(status, STATUS_BODIES[status] ?? '');
  }
}

function plain(status: number, body: string): Answer {
  return { status, contentType: 'text/plain; charset=utf-8', body };
}

function checkBlocks(value: unknown, out: string[]): void {
  if (!Array.isArray(value)) {
    out.push('blocks: not an array');
    return;
  }
  if (value.length > MAX_BLOCKS) out.push(`blocks: ${value.length} blocks, at most ${MAX_BLOCKS}`);
  value.forEach((block, i) => checkBlock(`blocks[${i}]`, block, out));
}

/** The fields each block type documents, `type` and `block_id` included. */
const BLOCK_FIELDS = {
  header: ['type', 'block_id', 'text'],
  section: ['type', 'block_id', 'text', 'fields', 'accessory', 'expand'],
  context: ['type', 'block_id', 'elements'],
  divider: ['type', 'block_id'],
  actions: ['type', 'block_id', 'elements'],
} as const;
type BlockType = keyof typeof BLOCK_FIELDS;
const isBlockType = (type: unknown): type is BlockType =>
  typeof type === 'string' && Object.hasOwn(BLOCK_FIELDS, type);

function checkBlock(at: string, block: unknown, out: string[]): void {
  if (!isObject(block)) {
    out.push(`${at}: not an object`);
    return;
  }
  if (!isBlockType(block.type)) {
    out.push(
      `${at}.type: ${JSON.stringify(block.type)} is not a block type (${Object.keys(BLOCK_FIELDS).join(', ')})`,
    );
    return;
  }
  const type = block.type;
  unknownFields(at, block, BLOCK_FIELDS[type], `a ${type} block`, out);
  if (block.block_id !== undefined) checkString(`${at}.block_id`, block.block_id, 255, out);
  switch (type) {
    case 'header':
      checkText(`${at}.text`, block.text, ['plain_text'], 150, out);
      return;
    case 'section':
      if (block.text === undefined && block.fields === undefined) out.push(`${at}: neither text nor fields`);
      if (block.text !== undefined) checkText(`${at}.text`, block.text, ['mrkdwn', 'plain_text'], 3000, out);
      if (block.fields !== undefined) {
        checkList(`${at}.fields`, block.fields, 1, 10, out, (field, i) =>
          checkText(`${at}.fields[${i}]`, field, ['mrkdwn', 'plain_text'], 2000, out),
        );
      }
      if (block.accessory !== undefined)
        checkElement(`${at}.accessory`, block.accessory, ['button', 'image'], out);
      if (block.expand !== undefined && typeof block.expand !== 'boolean')
        out.push(`${at}.expand: not a boolean`);
      return;
    case 'context':
      checkList(`${at}.elements`, block.elements, 1, 10, out, (element, i) => {
        const where = `${at}.elements[${i}]`;
        if (isObject(element) && element.type === 'image') checkImage(where, element, out);
        else checkText(where, element, ['mrkdwn', 'plain_text'], 3000, out);
      });
      return;
    case 'divider':
      return;
    case 'actions':
      checkList(`${at}.elements`, block.elements, 1, 25, out, (element, i) =>
        checkElement(`${at}.elements[${i}]`, element, ['button'], out),
      );
      return;
  }
}

function unknownFields(
  at: string,
  value: JsonObject,
  known: readonly string[],
  what: string,
  out: string[],
): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) out.push(`${at}.${key}: not a field of ${what}`);
  }
}

function checkList(
  at: string,
  value: unknown,
  min: number,
  max: number,
  out: string[],
  each: (item: unknown, i: number) => void,
): void {
  if (!Array.isArray(value)) {
    out.push(`${at}: not an array`);
    return;
  }
  if (value.length < min || value.length > max)
    out.push(`${at}: ${value.length} items, not ${min} to ${max}`);
  value.forEach(each);
}

function checkString(at: string, value: unknown, max: number, out: string[]): void {
  if (typeof value !== 'string' || value === '') out.push(`${at}: not a non-empty string`);
  else if (characters(value) > max) out.push(`${at}: ${characters(value)} characters, at most ${max}`);
}

function checkUrl(at: string, value: unknown, out: string[]): void {
  checkString(at, value, 3000, out);
  if (typeof value === 'string' && value !== '' && !URL.canParse(value)) out.push(`${at}: not a URL`);
}

/** A text object of one of `types`, its text 1 to `max` characters. */
function checkText(at: string, value: unknown, types: readonly string[], max: number, out: string[]): void {
  if (!isObject(value)) {
    out.push(`${at}: not a text object`);
    return;
  }
  unknownFields(at, value, ['type', 'text', 'emoji', 'verbatim'], 'a text object', out);
  if (typeof value.type !== 'string' || !types.includes(value.type)) {
    out.push(`${at}.type: ${JSON.stringify(value.type)}, not ${types.join(' or ')}`);
  }
  checkString(`${at}.text`, value.text, max, out);
  if (value.emoji !== undefined && (value.type !== 'plain_text' || typeof value.emoji !== 'boolean')) {
    out.push(`${at}.emoji: a boolean of plain_text only`);
  }
  if (value.verbatim !== undefined && (value.type !== 'mrkdwn' || typeof value.verbatim !== 'boolean')) {
    out.push(`${at}.verbatim: a boolean of mrkdwn only`);
  }
}

function checkElement(
  at: string,
  value: unknown,
  types: readonly ('button' | 'image')[],
  out: string[],
): void {
  if (!isObject(value) || !types.some((type) => type === value.type)) {
    out.push(`${at}: not a ${types.join(' or ')} element`);
    return;
  }
  if (value.type === 'image') checkImage(at, value, out);
  else checkButton(at, value, out);
}

function checkButton(at: string, button: JsonObject, out: string[]): void {
  const fields = ['type', 'text', 'action_id', 'url', 'value', 'style', 'confirm', 'accessibility_label'];
  unknownFields(at, button, fields, 'a button', out);
  checkText(`${at}.text`, button.text, ['plain_text'], 75, out);
  if (button.action_id !== undefined) checkString(`${at}.action_id`, button.action_id, 255, out);
  if (button.url !== undefined) checkUrl(`${at}.url`, button.url, out);
  if (button.value !== undefined) checkString(`${at}.value`, button.value, 2000, out);
  if (button.style !== undefined && button.style !== 'primary' && button.style !== 'danger') {
    out.push(`${at}.style: ${JSON.stringify(button.style)}, not primary or danger`);
  }
  if (button.confirm !== undefined && !isObject(button.confirm)) out.push(`${at}.confirm: not an object`);
  if (button.accessibility_label !== undefined) {
    checkString(`${at}.accessibility_label`, button.accessibility_label, 75, out);
  }
}

function checkImage(at: string, image: JsonObject, out: string[]): void {
  unknownFields(at, image, ['type', 'image_url', 'slack_file', 'alt_text'], 'an image element', out);
  if ((image.image_url === undefined) === (image.slack_file === undefined)) {
    out.push(`${at}: not exactly one of image_url and slack_file`);
  }
  if (image.image_url !== undefined) checkUrl(`${at}.image_url`, image.image_url, out);
  if (image.slack_file !== undefined && !isObject(image.slack_file))
    out.push(`${at}.slack_file: not an object`);
  checkString(`${at}.alt_text`, image.alt_text, 2000, out);
}
