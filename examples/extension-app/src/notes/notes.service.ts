import { randomUUID } from 'node:crypto';
import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { declareResource, RelayersService, Transactions } from 'relayer-management-service';
import { NoteEntity } from './note.entity';

// Keys may be given notes:read and notes:write; the audit trail lists notes (GET /api/v1/audit?resource_type=note).
declareResource({ name: 'note', permissions: ['notes:read', 'notes:write'], audited: true });

/** A note as the routes answer it. */
export interface Note {
  readonly id: string;
  readonly relayer_id: string;
  readonly text: string;
}

export const toNote = (row: NoteEntity): Note => ({ id: row.id, relayer_id: row.relayerId, text: row.text });

@Injectable()
export class NotesService {
  constructor(
    private readonly transactions: Transactions,
    private readonly relayers: RelayersService,
    @InjectRepository(NoteEntity) private readonly notes: Repository<NoteEntity>,
  ) {}

  /** Written and audited in one transaction of the service's: both commit, or neither. */
  async create(relayerId: string, text: string): Promise<Note> {
    await this.relayers.get(relayerId); // the service's own 404 when there is no such relayer
    return this.transactions.run(async (tx) => {
      const note: Note = { id: randomUUID(), relayer_id: relayerId, text };
      await tx.manager.insert(NoteEntity, { id: note.id, relayerId, text });
      await tx.recordChange({
        resource: 'note',
        id: note.id,
        operation: 'create',
        before: null,
        after: note,
      });
      return note;
    });
  }

  async get(id: string): Promise<Note> {
    const row = await this.notes.findOneBy({ id });
    if (!row) throw new NotFoundException(`no such note: ${id}`);
    return toNote(row);
  }

  async ofRelayer(relayerId: string): Promise<Note[]> {
    const rows = await this.notes.find({ where: { relayerId }, order: { text: 'ASC' } });
    return rows.map(toNote);
  }
}
