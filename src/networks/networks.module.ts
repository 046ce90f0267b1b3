import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { NetworkRpcUrlsEntity } from './network-rpc-urls.entity';
import { NetworksController } from './networks.controller';
import { NetworksRepository } from './networks.repository';
import { NetworksService } from './networks.service';
import { NetworkPatchRules } from './networks.validation';
import { declareResource } from '../common/auth/resources';

// Its resource, permissions and audited type (docs/reference/extension-events.md).
declareResource({ name: 'network', permissions: ['networks:read', 'networks:write'], audited: true });

/** Networks: those of the configuration file, with RPC lists changed through the API (rows seen by every instance). */
@Module({
  imports: [TypeOrmModule.forFeature([NetworkRpcUrlsEntity])],
  controllers: [NetworksController],
  providers: [NetworksService, NetworksRepository, NetworkPatchRules],
  exports: [NetworksService],
})
export class NetworksModule {}
