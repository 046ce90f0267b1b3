import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { NotificationsModule } from '../notifications/notifications.module';
import { RelayerEntity } from './relayer.entity';
import { RelayersController } from './relayers.controller';
import { RelayersRepository } from './relayers.repository';
import { RelayersService } from './relayers.service';

@Module({
  imports: [TypeOrmModule.forFeature([RelayerEntity]), NotificationsModule],
  controllers: [RelayersController],
  providers: [RelayersRepository, RelayersService],
  exports: [RelayersRepository],
})
export class RelayersModule {}
