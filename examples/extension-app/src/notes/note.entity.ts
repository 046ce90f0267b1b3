import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A note kept about a relayer, in a table of the extension's own in the service's database. */
@Entity('ext_notes')
export class NoteEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'relayer_id', type: 'varchar', length: 36 })
  relayerId!: string;

  @Column({ type: 'varchar', length: 500 })
  text!: string;
}
