import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { HostedSignerResolver, HostedSignerView, SignerAddresses } from '../../catalogue';
import { isPlainObject } from '../../common/validation/field-rules';
import type { AppConfig } from '../../config/app-config';
import { z } from 'zod';
import {
  HOSTED_SIGNER_TYPES,
  isHostedSignerType,
  parseHostedSignerConfig,
  type TextValue,
} from './hosted-signer-config';
import { needsCall, type KeyServices } from './key-services';

type Stored = Record<string, { digest: string; addresses: SignerAddresses }>;

/**
 * The file's hosted signers (docs/reference/kms-signers.md#2-in-the-configuration-file): their addresses
 * are kept from an earlier start for the same non-secret config, else fetched once and kept.
 */
export class FileHostedSigners implements HostedSignerResolver {
  private stored: Promise<Stored> | null = null;
  readonly types = HOSTED_SIGNER_TYPES;
  /** In a check: the signers whose addresses need a call that was not made (offline). */
  readonly unchecked = new Set<string>();

  /**
   * `check`: `config check` writes nothing and, unless `online`, calls no key service: a signer whose
   * addresses need a call (none kept from an earlier start) gets none and is listed in `unchecked`.
   */
  constructor(
    private readonly config: Pick<AppConfig, 'dataDir' | 'secretsEnv' | 'keyServices'>,
    private readonly keyServices: KeyServices,
    private readonly check?: { readonly online: boolean },
  ) {}

  async resolve(id: string, type: string, raw: unknown): Promise<HostedSignerView> {
    const { config: parsed, problems } = isHostedSignerType(type)
      ? parseHostedSignerConfig(type, raw, {
          vaultHosts: this.config.keyServices.vaultHosts,
          text: this.text,
        })
      : { config: null, problems: [`unknown type ${type}`] };
    if (!parsed) throw new Error([...new Set(problems)].join('; '));
    const digest = createHash('sha256')
      .update(JSON.stringify([type, parsed.shown]))
      .digest('hex');
    const stored = await (this.stored ??= this.load());
    const known = stored[id];
    if (known?.digest === digest) return { type, config: parsed.shown, addresses: known.addresses };
    if (this.check && !this.check.online && needsCall(parsed)) {
      this.unchecked.add(id);
      return { type, config: parsed.shown, addresses: {} };
    }
    const addresses = await this.keyServices.addresses(id, parsed);
    if (this.check) return { type, config: parsed.shown, addresses };
    stored[id] = { digest, addresses };
    await mkdir(this.config.dataDir, { recursive: true });
    await writeFile(this.file(), JSON.stringify(stored), { mode: 0o600 });
    return { type, config: parsed.shown, addresses };
  }

  /** A string, or a secret of the file: `{"type": "env" | "plain", "value": ...}`. */
  private readonly text: TextValue = z.unknown().transform((value, ctx) => {
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (isPlainObject(value) && typeof value.value === 'string') {
      if (value.type === 'plain' && value.value !== '') return value.value;
      if (value.type === 'env') {
        const resolved = this.config.secretsEnv[value.value];
        if (resolved) return resolved;
        ctx.addIssue(`: environment variable ${value.value} is not set`);
        return z.NEVER;
      }
    }
    ctx.addIssue('must be a non-empty string or {"type": "env" | "plain", "value": ...}');
    return z.NEVER;
  });

  private file(): string {
    return path.join(this.config.dataDir, 'hosted-signer-addresses.json');
  }

  private async load(): Promise<Stored> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.file(), 'utf8'));
      return isPlainObject(parsed) ? (parsed as Stored) : {};
    } catch {
      return {};
    }
  }
}
