import { resolveSentUrl } from '../security/url-masking';
import { checkUrl, type UrlPolicyOptions } from '../security/url-policy';
import { RPC_WEIGHT } from './field-rules';
import type { RpcConfigDto } from './rpc-config.dto';

export const MAX_RPC_URLS = 20;

/** An RPC endpoint as stored and as answered (masked): `{url, weight}`. */
export interface RpcUrl {
  url: string;
  weight: number;
}

/**
 * `null` for an item whose URL already failed the DTO. A masked URL keeps the stored URL it stands for,
 * wherever it is in the list; one standing for none or two is refused, so the mask is never stored.
 */
export function resolveRpcUrlList(
  given: ReadonlyArray<RpcConfigDto | null>,
  stored: readonly RpcUrl[],
  policy: UrlPolicyOptions,
  field: string,
): { readonly urls: RpcUrl[]; readonly problems: string[] } {
  const storedUrls = stored.map((rpc) => rpc.url);
  const problems: string[] = [];
  const urls = given.flatMap((rpc, i) => {
    if (rpc === null) return [];
    const sent = resolveSentUrl(rpc.url, storedUrls);
    const path = `${field}[${i}].url`;
    const matches = { ambiguous: 'more than one stored URL', unmatched: 'no stored URL' } as const;
    if (sent.kind === 'ambiguous' || sent.kind === 'unmatched') {
      problems.push(`${path} is a masked URL that matches ${matches[sent.kind]}: send the full URL`);
    } else if (sent.kind === 'new') {
      const reason = checkUrl(rpc.url, policy);
      if (reason !== null) problems.push(`${path} ${reason}`);
    }
    return [{ url: sent.kind === 'kept' ? sent.url : rpc.url, weight: rpc.weight ?? RPC_WEIGHT.default }];
  });
  return { urls, problems };
}
