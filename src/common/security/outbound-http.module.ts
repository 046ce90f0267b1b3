import { Module } from '@nestjs/common';
import { DnsResolver } from './dns-resolver';

@Module({ providers: [DnsResolver], exports: [DnsResolver] })
export class OutboundHttpModule {}
