import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { declareResource } from '../common/auth/resources';
import { RoleEntity } from './role.entity';
import { RolesController } from './roles.controller';
import { RolesRepository } from './roles.repository';
import { RolesService } from './roles.service';

// Its resource, permission and audited type (docs/reference/extension-events.md).
declareResource({ name: 'role', permissions: ['roles:manage'], audited: true });

/** Roles (docs/access.md#roles-from-the-providers-groups-to-permissions): what the people of the identity provider's groups may do. */
@Module({
  imports: [TypeOrmModule.forFeature([RoleEntity])],
  controllers: [RolesController],
  providers: [RolesService, RolesRepository],
  exports: [RolesService],
})
export class RolesModule {}
