import { EventStoreModule } from '@analytics/event-store';
import { ProjectsModule } from '@analytics/projects';
import { Module } from '@nestjs/common';
import { RetentionSweeper } from './retention-sweeper';

/** The daily sweep of expired events; the process needs the jobs module (global) mounted. */
@Module({ imports: [ProjectsModule, EventStoreModule], providers: [RetentionSweeper] })
export class RetentionModule {}
