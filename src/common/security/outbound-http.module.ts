import { Module } from '@nestjs/common';
import { DnsResolver } from './policy-agent';

@Module({ providers: [DnsResolver], exports: [DnsResolver] })
export class OutboundHttpModule {}
