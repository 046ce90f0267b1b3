import { Injectable } from '@nestjs/common';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';

/** A seam so that tests can make a name resolve where they want. */
@Injectable()
export class DnsResolver {
  lookup(
    hostname: string,
    callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ): void {
    dnsLookup(hostname, { all: true }, callback);
  }
}
