export { JobStatus, JobState } from './job-status';
export { EnqueueOptions, JobHandler, JobQueue, RunningJob, ScheduleOptions, WorkOptions } from './job-queue';
export { JobsModule } from './jobs.module';
export { DEFAULT_JOBS_SETTINGS, JobPolicy, JobsOptions, JobsSettings } from './jobs-settings';
