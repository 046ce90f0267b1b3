import { Module } from '@nestjs/common';
import { DnsResolver } from './policy-agent';

/** What every outgoing caller (webhooks, RPC health checks) shares: one resolver. */
@Module({ providers: [DnsResolver], exports: [DnsResolver] })
export class OutboundHttpModule {}
