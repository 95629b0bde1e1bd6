import { ClockModule, IdSource } from '@analytics/clock';
import { Postgres } from '@analytics/postgres';
import { DynamicModule, Module } from '@nestjs/common';
import { JobQueue } from './job-queue';
import { JobsOptions } from './jobs-settings';

/**
 * One {@link JobQueue} per process over the project's Postgres connection (PostgresModule must be
 * mounted). Global, so every feature module enqueues and works through the same instance; the
 * queue stops (gracefully) before the connection closes.
 */
@Module({})
export class JobsModule {
  static forRoot(options: JobsOptions = {}): DynamicModule {
    return {
      module: JobsModule,
      global: true,
      // The platform mounts ClockModule already; importing it here too costs nothing (one instance) and states the need.
      imports: [ClockModule],
      providers: [
        {
          provide: JobQueue,
          useFactory: (postgres: Postgres, ids: IdSource) => JobQueue.start(postgres, options, ids),
          inject: [Postgres, IdSource],
        },
      ],
      exports: [JobQueue],
    };
  }
}
