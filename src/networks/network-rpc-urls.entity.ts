import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DocumentColumn } from '../database/document-column';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import { jsonColumn } from '../database/json-column';

/** A network's RPC list set through the API: it replaces the file's list on every instance. */
@Entity({ name: 'network_rpc_urls' })
export class NetworkRpcUrlsEntity {
  /** `<type>:<name>`, as in the API. */
  @PrimaryColumn({ name: 'network_id', type: 'varchar', length: 120 })
  networkId: string;

  @DocumentColumn({ name: 'rpc_urls', transformer: jsonColumn })
  rpcUrls: RpcUrl[];

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
