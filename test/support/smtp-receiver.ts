// A real SMTP server for the alert e-mail, with the checks a mail client's reader relies on:
// - the server: smtp-server, https://nodemailer.com/extras/smtp-server (no TLS: STARTTLS disabled,
//   AUTH PLAIN and LOGIN in clear text with allowInsecureAuth; errors with responseCode set the reply);
// - the message: mailparser's simpleParser, https://nodemailer.com/extras/mailparser;
// - what a message must carry: RFC 5322 section 3.6 (Date and From required, Message-ID expected) and
//   RFC 2046 section 5.1.4 (multipart/alternative: the same content as text/plain and text/html).
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import {
  SMTPServer,
  type SMTPServerAddress,
  type SMTPServerAuthentication,
  type SMTPServerAuthenticationResponse,
  type SMTPServerDataStream,
  type SMTPServerSession,
} from 'smtp-server';
import { waitFor } from './wait';

export interface ReceivedMail {
  /** The envelope: MAIL FROM and every accepted RCPT TO. */
  readonly from: string;
  readonly to: readonly string[];
  /** Who authenticated, or null without AUTH. */
  readonly user: string | null;
  readonly raw: string;
  /** Parsed headers by lowercase name (mailparser's). */
  readonly headers: ParsedMail['headers'];
  readonly subject: string | undefined;
  readonly text: string | undefined;
  readonly html: string | undefined;
  /** What the message lacks; empty when it is valid. */
  readonly violations: readonly string[];
}

/** A refusal for the next `count` messages (default 1): 4xx is temporary, 5xx permanent. */
export interface Refusal {
  readonly stage: 'rcpt' | 'data';
  readonly code: number;
  readonly count?: number;
}

/** A message the receiver refused as scripted. */
export interface RefusedMail {
  readonly stage: Refusal['stage'];
  readonly code: number;
  readonly from: string;
  readonly to: readonly string[];
}

export interface SmtpCredentials {
  readonly user: string;
  readonly pass: string;
}

/** The reply texts of RFC 5321 section 4.2.2. */
const REPLY_TEXT = {
  temporary: 'Requested action aborted: local error in processing',
  permanent: 'Requested action not taken: mailbox unavailable',
};

/**
 * An SMTP server on a loopback port, as an operator's relay: records every message with what it
 * lacks, asks for AUTH when credentials are given (535 for wrong ones), and refuses the next
 * messages as scripted by `refuse`.
 */
export class SmtpReceiver {
  readonly messages: ReceivedMail[] = [];
  readonly refused: RefusedMail[] = [];
  /** Connection errors the server reported (a client that hung up mid-session). */
  readonly errors: Error[] = [];
  authFailures = 0;
  port = 0;
  private readonly server: SMTPServer;
  private readonly refusals: { stage: Refusal['stage']; code: number; left: number }[] = [];
  /** The refusal the transaction of each session meets, decided at its MAIL FROM. */
  private readonly transactions = new Map<string, { refusal: Refusal | null; recorded: boolean }>();

  constructor(private readonly credentials?: SmtpCredentials) {
    this.server = new SMTPServer({
      name: 'smtp.stand-in.test',
      logger: false,
      disableReverseLookup: true,
      disabledCommands: credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authMethods: ['PLAIN', 'LOGIN'],
      authOptional: !credentials,
      allowInsecureAuth: true,
      // A pooled client's idle connection would hold close() for the default 30 s.
      closeTimeout: 200,
      onAuth: (auth, session, callback) => this.authenticate(auth, session, callback),
      onMailFrom: (address, session, callback) => this.mailFrom(address, session, callback),
      onRcptTo: (address, session, callback) => this.rcptTo(address, session, callback),
      onData: (stream, session, callback) => this.data(stream, session, callback),
      onClose: (session) => this.transactions.delete(session.id),
    });
    this.server.on('error', (error: Error) => this.errors.push(error));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  /** `smtp://user:pass@127.0.0.1:port`, with the receiver's credentials unless others are given. */
  url(credentials: { user?: string; pass?: string } = {}): string {
    const user = credentials.user ?? this.credentials?.user;
    const pass = credentials.pass ?? this.credentials?.pass ?? '';
    const auth = user === undefined ? '' : `${encodeURIComponent(user)}:${encodeURIComponent(pass)}@`;
    return `smtp://${auth}127.0.0.1:${this.port}`;
  }

  /** Refuses the next `count` messages at `stage` with `code`, after the refusals asked before. */
  refuse({ stage, code, count = 1 }: Refusal): void {
    this.refusals.push({ stage, code, left: count });
  }

  /** Polls until `count` messages were accepted (deadline 15 s). */
  waitFor(count: number, timeoutMs = 15_000): Promise<ReceivedMail[]> {
    return waitFor(`${count} e-mails`, () => this.messages.length >= count && this.messages, {
      timeoutMs,
      intervalMs: 20,
      detail: () => `received ${this.messages.length} of ${count} e-mails, refused ${this.refused.length}`,
    });
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private authenticate(
    auth: SMTPServerAuthentication,
    _session: SMTPServerSession,
    callback: (error: Error | null | undefined, response?: SMTPServerAuthenticationResponse) => void,
  ): void {
    const { credentials } = this;
    if (credentials && auth.username === credentials.user && auth.password === credentials.pass) {
      callback(null, { user: auth.username });
      return;
    }
    this.authFailures += 1;
    // Neither the user nor the password is repeated in the reply.
    callback(refusal(535, 'Authentication credentials invalid'));
  }

  private mailFrom(
    _address: SMTPServerAddress,
    session: SMTPServerSession,
    callback: (error?: Error | null) => void,
  ): void {
    const next = this.refusals[0];
    if (next) {
      next.left -= 1;
      if (next.left <= 0) this.refusals.shift();
    }
    this.transactions.set(session.id, {
      refusal: next ? { stage: next.stage, code: next.code } : null,
      recorded: false,
    });
    callback();
  }

  private rcptTo(
    address: SMTPServerAddress,
    session: SMTPServerSession,
    callback: (error?: Error | null) => void,
  ): void {
    const transaction = this.transactions.get(session.id);
    if (transaction?.refusal?.stage !== 'rcpt') {
      callback();
      return;
    }
    // Every recipient of the message is refused; the message is counted once.
    if (!transaction.recorded) {
      transaction.recorded = true;
      const { code } = transaction.refusal;
      this.refused.push({ stage: 'rcpt', code, from: envelopeFrom(session), to: [address.address] });
    } else {
      const last = this.refused[this.refused.length - 1];
      this.refused[this.refused.length - 1] = { ...last, to: [...last.to, address.address] };
    }
    callback(refusal(transaction.refusal.code));
  }

  private data(
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    callback: (error?: Error | null, message?: string) => void,
  ): void {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const from = envelopeFrom(session);
      const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
      const scripted = this.transactions.get(session.id)?.refusal;
      if (scripted?.stage === 'data') {
        this.refused.push({ stage: 'data', code: scripted.code, from, to });
        callback(refusal(scripted.code));
        return;
      }
      simpleParser(raw).then(
        (parsed) => {
          const user = typeof session.user === 'string' ? session.user : null;
          this.messages.push({
            from,
            to,
            user,
            raw,
            headers: parsed.headers,
            subject: parsed.subject,
            text: parsed.text,
            html: parsed.html === false ? undefined : parsed.html,
            violations: mailViolations(raw, parsed, from),
          });
          callback(null, 'Message accepted');
        },
        (error: Error) => callback(refusal(554, `Message not parsed: ${error.message}`)),
      );
    });
  }
}

function refusal(code: number, text = code >= 500 ? REPLY_TEXT.permanent : REPLY_TEXT.temporary): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

function envelopeFrom(session: SMTPServerSession): string {
  return session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
}

function mailViolations(raw: string, parsed: ParsedMail, envelopeSender: string): string[] {
  const violations: string[] = [];
  if (!parsed.headers.has('message-id')) violations.push('Message-ID: missing');
  if (!parsed.headers.has('date')) violations.push('Date: missing');
  if (!parsed.subject) violations.push('Subject: missing or empty');
  const senders = (parsed.from?.value ?? []).map((mailbox) => mailbox.address ?? '');
  if (senders.length !== 1 || senders[0].toLowerCase() !== envelopeSender.toLowerCase()) {
    violations.push(
      `From: ${JSON.stringify(senders)}, not the envelope sender ${JSON.stringify(envelopeSender)}`,
    );
  }
  const shape = mimeShape(raw);
  if (shape.type !== 'multipart/alternative') {
    violations.push(`Content-Type: ${shape.type}, not multipart/alternative`);
  } else if (!shape.parts.includes('text/plain') || !shape.parts.includes('text/html')) {
    violations.push(`parts: ${shape.parts.join(', ') || 'none'}, not a text/plain and a text/html part`);
  }
  return violations;
}

/** The content type of the message and, when it is multipart, those of its direct parts. */
function mimeShape(raw: string): { type: string; parts: string[] } {
  const { headers, body } = splitEntity(raw);
  const contentType = /^content-type:\s*([^;\s]+)(.*)$/im.exec(headers);
  // RFC 2045 section 5.2: an entity without Content-Type is text/plain.
  const type = contentType ? contentType[1].toLowerCase() : 'text/plain';
  const boundary = contentType && /boundary="?([^";]+)"?/i.exec(contentType[2]);
  if (!type.startsWith('multipart/') || !boundary) return { type, parts: [] };
  const delimiter = `--${boundary[1]}`;
  // The first piece is the preamble, the last the close delimiter's `--` and the epilogue.
  const pieces = body.split(delimiter).slice(1, -1);
  return { type, parts: pieces.map((piece) => mimeShape(piece.replace(/^\r?\n/, '')).type) };
}

/** Headers (unfolded) and body of a MIME entity. */
function splitEntity(entity: string): { headers: string; body: string } {
  const end = /\r?\n\r?\n/.exec(entity);
  const headers = end ? entity.slice(0, end.index) : entity;
  const body = end ? entity.slice(end.index + end[0].length) : '';
  return { headers: headers.replace(/\r?\n[ \t]+/g, ' '), body };
}
