import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { TenantEntity } from 'src/core/tenancy/tenant.entity';

export const JOB_STATES = ['scheduled', 'queued', 'done', 'failed', 'canceled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * A job due at a time of its tenant's clock. Written in the transaction of the change that needs
 * it (like an outbox row); the relay hands due rows to the queue (`queued`); the run that commits
 * the handler's work marks it `done` in that same transaction.
 */
@Entity('scheduled_jobs')
@Index('scheduled_jobs_dedupe_key', ['tenant_id', 'livemode', 'kind', 'dedupe_key'], { unique: true })
@Index('scheduled_jobs_due_idx', ['due_at'], { where: `"state" = 'scheduled'` })
@Index('scheduled_jobs_tenant_due_idx', ['tenant_id', 'livemode', 'due_at'], {
  where: `"state" IN ('scheduled', 'queued')`,
})
@Index('scheduled_jobs_queued_idx', ['queued_at'], { where: `"state" = 'queued'` })
@Check('scheduled_jobs_state_check', `"state" IN ('scheduled', 'queued', 'done', 'failed', 'canceled')`)
export class ScheduledJobEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenant_id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'scheduled_jobs_tenant_id_fkey' })
  tenant?: TenantEntity;

  @Column({ type: 'boolean' })
  livemode: boolean;

  /** Which handler runs it, e.g. `transfer.advance`. */
  @Column({ type: 'text' })
  kind: string;

  /** Unique per tenant, mode and kind: scheduling the same thing twice keeps the first row. */
  @Column({ name: 'dedupe_key', type: 'text' })
  dedupe_key: string;

  /** When it falls due, in the tenant's clock time. */
  @Column({ name: 'due_at', type: 'timestamptz' })
  due_at: Date;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  payload: Record<string, unknown>;

  @Column({ type: 'text', default: 'scheduled' })
  state: JobState;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  last_error: string | null;

  @Column({ name: 'queued_at', type: 'timestamptz', nullable: true })
  queued_at: Date | null;

  /** When it was done, failed for good or canceled (real time). */
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finished_at: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at: Date;
}
