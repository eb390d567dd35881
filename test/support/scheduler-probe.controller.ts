import { Body, Controller, HttpCode, OnModuleInit, Post } from '@nestjs/common';
import { IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import { DataSource } from 'typeorm';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { EventsService } from 'src/core/events/events.service';
import { JobRegistry } from 'src/core/scheduler/job-registry';
import { JobScheduler } from 'src/core/scheduler/job-scheduler.service';

export const PROBE_JOB = 'probe.record';

class ProbeJobBody {
  @IsString()
  @Length(1, 50)
  name: string;

  @IsInt()
  @Min(0)
  delay_seconds: number;

  /** When the job runs it schedules `then` this many seconds after its own run time. */
  @IsOptional()
  @IsInt()
  @Min(0)
  then_after_seconds?: number;
}

/**
 * Test-only: schedules `probe.record` jobs on the caller's clock. When one runs it emits an
 * `account.updated` event carrying `{probe: name, ran_at}` (read back with GET /v1/events), and may
 * schedule a follow-up job (`<name>.then`).
 */
@Controller('probe/jobs')
export class SchedulerProbeController implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly scheduler: JobScheduler,
    private readonly registry: JobRegistry,
    private readonly clock: ClockService,
    private readonly events: EventsService,
  ) {}

  onModuleInit(): void {
    this.registry.register(PROBE_JOB, {
      run: async (manager, job) => {
        const { name, then_after_seconds } = job.payload as { name: string; then_after_seconds?: number };
        await this.events.emit(manager, {
          tenantId: job.tenantId,
          livemode: job.livemode,
          event: 'account.updated',
          data: { probe: name, ran_at: job.now.toISOString(), due_at: job.dueAt.toISOString() },
        });
        if (then_after_seconds !== undefined) {
          await this.scheduler.schedule(manager, {
            tenantId: job.tenantId,
            livemode: job.livemode,
            kind: PROBE_JOB,
            dueAt: new Date(job.now.getTime() + then_after_seconds * 1000),
            payload: { name: `${name}.then` },
            dedupeKey: `${name}.then`,
          });
        }
      },
    });
  }

  @Post()
  @HttpCode(201)
  async schedule(@CurrentPrincipal() p: Principal, @Body() body: ProbeJobBody) {
    const now = await this.clock.now(p);
    const due = new Date(now.getTime() + body.delay_seconds * 1000);
    return this.dataSource.transaction(async (manager) => {
      const job = await this.scheduler.schedule(manager, {
        tenantId: p.tenantId,
        livemode: p.livemode,
        kind: PROBE_JOB,
        dueAt: due,
        payload: { name: body.name, then_after_seconds: body.then_after_seconds },
        dedupeKey: body.name,
      });
      return { object: 'probe_job', livemode: p.livemode, id: job.id, due_at: due.toISOString() };
    });
  }
}
