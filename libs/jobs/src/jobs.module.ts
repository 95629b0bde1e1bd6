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
      providers: [{ provide: JobQueue, useFactory: (postgres: Postgres) => JobQueue.start(postgres, options), inject: [Postgres] }],
      exports: [JobQueue],
    };
  }
}
