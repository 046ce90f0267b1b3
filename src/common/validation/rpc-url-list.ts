import { ApiProperty } from '@nestjs/swagger';
import { resolveSentUrl } from '../security/url-masking';
import { checkUrl, type UrlPolicyOptions } from '../security/url-policy';
import { IsOptionalRpcWeight, IsUrlText, RPC_WEIGHT } from './field-rules';

/** At most this many RPC URLs in a relayer's custom list or a network's list. */
export const MAX_RPC_URLS = 20;

/** An RPC endpoint as stored and as answered (masked): `{url, weight}`. */
export interface RpcUrl {
  url: string;
  weight: number;
}

/** One `{url, weight}` item of a request body. */
export class RpcConfigDto {
  @ApiProperty({ example: 'https://eth-mainnet.example.com/v2/KEY' })
  @IsUrlText()
  url: string;

  @IsOptionalRpcWeight()
  weight?: number | null;
}

/** An RPC endpoint as answered. */
export class RpcConfigResponse {
  @ApiProperty({ description: 'Masked: no credentials, last path segment and query values ***' })
  url: string;

  @ApiProperty()
  weight: number;
}

/**
 * The RPC list a request sets, from its items (`null` for an item whose URL already failed the
 * DTO's rules: it is skipped, its problem is already named). Applies the RPC URL policy to each new
 * URL. A masked URL sent back as GET showed it keeps the stored URL it stands for, wherever it is
 * in the list; one that stands for none, or for two, is refused, so the mask text is never stored.
 * Problems name `<field>[i].url`.
 */
export function resolveRpcUrlList(
  given: ReadonlyArray<RpcConfigDto | null>,
  stored: readonly RpcUrl[],
  policy: UrlPolicyOptions,
  field: string,
  problems: string[],
): RpcUrl[] {
  const storedUrls = stored.map((rpc) => rpc.url);
  const urls: RpcUrl[] = [];
  given.forEach((rpc, i) => {
    if (rpc === null) return;
    const sent = resolveSentUrl(rpc.url, storedUrls);
    const path = `${field}[${i}].url`;
    if (sent.kind === 'ambiguous') {
      problems.push(`${path} is a masked URL that matches more than one stored URL: send the full URL`);
    } else if (sent.kind === 'unmatched') {
      problems.push(`${path} is a masked URL that matches no stored URL: send the full URL`);
    } else if (sent.kind === 'new') {
      const reason = checkUrl(rpc.url, policy);
      if (reason !== null) problems.push(`${path} ${reason}`);
    }
    urls.push({ url: sent.kind === 'kept' ? sent.url : rpc.url, weight: rpc.weight ?? RPC_WEIGHT.default });
  });
  return urls;
}
