/**
 * Every secret a test hands to the service (API keys, signing keys, signer keys, RPC credentials)
 * is registered here, so that each test file can prove none of them reached a server log.
 */
class SecretRegistry {
  private readonly values = new Set<string>();

  add(value: string): string {
    this.values.add(value);
    return value;
  }

  /** The registered secrets that occur in the text. */
  foundIn(text: string): string[] {
    return [...this.values].filter((secret) => text.includes(secret));
  }
}

export const secrets = new SecretRegistry();
