/** Sent by the envelope interceptor as `data` and an `ETag` header (docs/reference/safe-writes.md). */
export class Tagged<T> {
  constructor(
    readonly data: T,
    readonly etag: string,
  ) {}
}

/** The creation time keeps a resource created again under the same id from matching an old tag. */
export function entityTag(version: number, createdAt: Date): string {
  return `"${version}-${createdAt.getTime().toString(36)}"`;
}
