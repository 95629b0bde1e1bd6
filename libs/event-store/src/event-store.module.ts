import { Module } from '@nestjs/common';
import { EventsRepository } from './events.repository';
import { EventsDeletionRepository } from './events-deletion.repository';

/**
 * The events table's writes: the insert the writers call, the deletions compliance and warehouse
 * imports run. Readers need no module: they build on the SQL this lib exports.
 */
@Module({
  providers: [EventsRepository, EventsDeletionRepository],
  exports: [EventsRepository, EventsDeletionRepository],
})
export class EventStoreModule {}
