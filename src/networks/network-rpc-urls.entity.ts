import { Column, Entity } from 'typeorm';
import { DocumentColumn } from '../database/document-column';
import { IdPrimaryColumn } from '../database/id-column';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import { jsonColumn } from '../database/json-column';

/** A network's RPC list set through the API: it replaces the file's list on every instance. */
@Entity({ name: 'network_rpc_urls' })
export class NetworkRpcUrlsEntity {
  /** `<type>:<name>`, as in the API. */
  @IdPrimaryColumn({ name: 'network_id', length: 120, characters: 'text' })
  networkId: string;

  @DocumentColumn({ name: 'rpc_urls', transformer: jsonColumn })
  rpcUrls: RpcUrl[];

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
