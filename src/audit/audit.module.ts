import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditController } from './audit.controller';
import { AuditEventEntity } from './audit-event.entity';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';
import { declareResource } from '../common/auth/resources';

// Its resource, permissions and audited type (docs/reference/extension-events.md).
declareResource({ name: 'audit', permissions: ['audit:read'] });

/** The audit trail of docs/reference/keys-and-audit.md: records written with each change, read at GET /api/v1/audit. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEventEntity])],
  controllers: [AuditController],
  providers: [AuditService, AuditRepository],
})
export class AuditModule {}
