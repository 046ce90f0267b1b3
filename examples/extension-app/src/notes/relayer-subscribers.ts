import { randomUUID } from 'node:crypto';
import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { RELAYER_EVENTS, type CommittingEvent, type RelayerEvent } from 'relayer-management-service';
import { NoteEntity } from './note.entity';

/** Relayer names with this prefix are refused by the extension (a rule of the team, say). */
export const RESERVED_PREFIX = 'frozen-';

/**
 * In the relayer's own transaction (`.committing`): its first note commits with it, and a throw vetoes
 * the create. The service rolls everything back and answers what the error maps to, whatever the
 * @OnEvent options (docs/reference/extension-events.md of the package).
 */
@Injectable()
export class RelayerCreationNotes {
  @OnEvent(`${RELAYER_EVENTS.created}.committing`)
  async created({ manager, event: { relayer } }: CommittingEvent<RelayerEvent>): Promise<void> {
    if (relayer.name.startsWith(RESERVED_PREFIX)) {
      throw new BadRequestException(`name: relayer names starting with '${RESERVED_PREFIX}' are reserved`);
    }
    await manager.insert(NoteEntity, {
      id: randomUUID(),
      relayerId: relayer.id,
      text: `created as ${relayer.name}`,
    });
  }
}

export const CHAT_URL = Symbol('CHAT_URL');

/**
 * After commit: tells a chat about each new relayer. Its failure (the chat down) is logged by the
 * service with the request id; the relayer stays created and the process keeps serving, even with
 * `suppressErrors: false`.
 */
@Injectable()
export class ChatAnnouncer {
  constructor(@Inject(CHAT_URL) private readonly url: string | null) {}

  @OnEvent(RELAYER_EVENTS.created, { suppressErrors: false })
  async created({ relayer }: RelayerEvent): Promise<void> {
    if (!this.url) return;
    const answer = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: `relayer ${relayer.id} (${relayer.name}) created` }),
      signal: AbortSignal.timeout(5000),
    });
    if (!answer.ok) throw new Error(`the chat answered ${answer.status}`);
  }
}
