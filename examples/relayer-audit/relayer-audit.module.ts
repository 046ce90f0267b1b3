import { Controller, Get, HttpCode, Injectable, Module, Param } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
// Only the public entry point (src/index.ts): what an installed package offers (docs/extending.md).
import {
  RELAYER_EVENTS,
  RelayersModule,
  RelayersService,
  RequirePermission,
  type RelayerEvent,
  type RelayerResponse,
} from '../../src';

export interface AuditEntry {
  readonly event: string;
  readonly relayer_id: string;
  readonly name: string;
}

/**
 * An example extension: keeps the last relayer changes in memory. It hears the events the webhook
 * outbox hears (@OnEvent, published after commit) and reads through the service the relayers
 * module exports.
 */
@Injectable()
export class RelayerAuditService {
  private static readonly KEEP = 1000;
  private readonly entries: AuditEntry[] = [];

  constructor(private readonly relayers: RelayersService) {}

  @OnEvent(RELAYER_EVENTS.created)
  created(event: RelayerEvent): void {
    this.add(RELAYER_EVENTS.created, event);
  }

  @OnEvent(RELAYER_EVENTS.updated)
  updated(event: RelayerEvent): void {
    this.add(RELAYER_EVENTS.updated, event);
  }

  @OnEvent(RELAYER_EVENTS.deleted)
  deleted(event: RelayerEvent): void {
    this.add(RELAYER_EVENTS.deleted, event);
  }

  list(): AuditEntry[] {
    return [...this.entries];
  }

  /** A relayer as the service answers it now, with the changes heard about it. */
  async history(id: string): Promise<{ relayer: RelayerResponse; changes: AuditEntry[] }> {
    return { relayer: await this.relayers.get(id), changes: this.entries.filter((e) => e.relayer_id === id) };
  }

  private add(event: string, { relayer }: RelayerEvent): void {
    this.entries.push({ event, relayer_id: relayer.id, name: relayer.name });
    if (this.entries.length > RelayerAuditService.KEEP) this.entries.shift();
  }
}

/** Under /api/v1/examples/relayer-audit: behind the API key and in the envelope, with no code of its own for that. */
@ApiTags('examples')
@ApiBearerAuth()
@Controller('examples/relayer-audit')
export class RelayerAuditController {
  constructor(private readonly audit: RelayerAuditService) {}

  @Get()
  @RequirePermission('relayers:read')
  @HttpCode(200)
  list(): AuditEntry[] {
    return this.audit.list();
  }

  @Get(':relayer_id')
  @RequirePermission('relayers:read')
  @HttpCode(200)
  history(@Param('relayer_id') id: string): Promise<{ relayer: RelayerResponse; changes: AuditEntry[] }> {
    return this.audit.history(id);
  }
}

@Module({
  imports: [RelayersModule],
  controllers: [RelayerAuditController],
  providers: [RelayerAuditService],
})
export class RelayerAuditModule {}
