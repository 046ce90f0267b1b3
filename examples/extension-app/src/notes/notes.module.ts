import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RelayersModule } from 'relayer-management-service';
import { NoteEntity } from './note.entity';
import { NotesController } from './notes.controller';
import { NotesService } from './notes.service';
import { CHAT_URL, ChatAnnouncer, RelayerCreationNotes } from './relayer-subscribers';

export { CreateExtNotes1900000000000 } from './create-notes.migration';

/** Notes about relayers: a table of its own (forFeature), its routes, and two subscribers of relayer changes. */
@Module({})
export class NotesModule {
  static register(options: { chatUrl: string | null }): DynamicModule {
    return {
      module: NotesModule,
      imports: [RelayersModule, TypeOrmModule.forFeature([NoteEntity])],
      controllers: [NotesController],
      providers: [
        NotesService,
        RelayerCreationNotes,
        ChatAnnouncer,
        { provide: CHAT_URL, useValue: options.chatUrl },
      ],
    };
  }
}
