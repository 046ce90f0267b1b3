import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { IsString, Length } from 'class-validator';
import { RequirePermission } from 'relayer-management-service';
import { NotesService, type Note } from './notes.service';

/** Validated by the service's pipe: a bad body answers 400 naming each problem, as the service's own. */
export class CreateNoteDto {
  @IsString()
  @Length(1, 36)
  relayer_id!: string;

  @IsString()
  @Length(1, 500)
  text!: string;
}

/** Under /api/v1/ext/notes: the key, the rate limit, the envelope and Idempotency-Key come from the service. */
@Controller('ext/notes')
export class NotesController {
  constructor(private readonly notes: NotesService) {}

  @Post()
  @HttpCode(201)
  @RequirePermission('notes:write')
  create(@Body() body: CreateNoteDto): Promise<Note> {
    return this.notes.create(body.relayer_id, body.text);
  }

  @Get()
  @HttpCode(200)
  @RequirePermission('notes:read')
  ofRelayer(@Query('relayer_id') relayerId: string): Promise<Note[]> {
    return this.notes.ofRelayer(relayerId ?? '');
  }

  @Get(':id')
  @HttpCode(200)
  @RequirePermission('notes:read')
  get(@Param('id') id: string): Promise<Note> {
    return this.notes.get(id);
  }
}
