import { Module } from '@nestjs/common';
import { EventsRepository } from './events.repository';
import { EventsDeletionRepository } from './events-deletion.repository';
import { EventsRetentionRepository } from './events-retention.repository';

/**
 * The events table's writes: the insert the writers call, the deletions compliance and warehouse
 * imports run, the retention sweep's removals. Readers need no module: they build on the SQL this lib exports.
 */
@Module({
  providers: [EventsRepository, EventsDeletionRepository, EventsRetentionRepository],
  exports: [EventsRepository, EventsDeletionRepository, EventsRetentionRepository],
})
export class EventStoreModule {}
