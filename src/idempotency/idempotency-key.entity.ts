import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DocumentColumn } from '../database/document-column';

export const IDEMPOTENCY_KEY_STATES = ['in_flight', 'done'] as const;
export type IdempotencyKeyState = (typeof IDEMPOTENCY_KEY_STATES)[number];

/**
 * One Idempotency-Key of one principal (docs/reference/safe-writes.md): claimed by INSERT when its first request
 * starts (the primary key on scope and key decides races, across instances and Galera nodes),
 * then holding that request's answer for 24 hours.
 */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyEntity {
  /** The principal's id: `admin` for the environment's API_KEY, the key's id for managed keys. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  scope: string;

  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: 255 })
  key: string;

  /** `POST /api/v1/relayers`: which route the key was used for (the digest covers the query too). */
  @Column({ type: 'varchar', length: 2048 })
  request: string;

  /** SHA-256 of method, URL and canonical body (see requestDigest). */
  @Column({ name: 'request_digest', type: 'varchar', length: 64 })
  requestDigest: string;

  @Column({ type: 'varchar', length: 16 })
  state: IdempotencyKeyState;

  /** Who holds the claim: the completion, release or takeover of a claim names it. */
  @Column({ name: 'claim_token', type: 'varchar', length: 36 })
  claimToken: string;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  /** The answer's whole envelope, as JSON, without the fields a route marks as shown once. */
  @DocumentColumn({ name: 'response_body', nullable: true })
  responseBody: string | null;

  /** The answer's headers that a replay repeats (ETag, Location), as a JSON object. */
  @Column({ name: 'response_headers', type: 'text', nullable: true })
  responseHeaders: string | null;

  /** When the key was claimed (again, after a takeover): it is kept 24 hours from then. */
  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
