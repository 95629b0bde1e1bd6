export { JobQueue, RunningJob } from './job-queue';
export { JobsModule } from './jobs.module';
