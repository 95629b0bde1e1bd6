import { Module } from '@nestjs/common';
import { EventsRepository } from './events.repository';

/** The events table's writes: the writers (Kafka and in-process) import this; readers build on the SQL this lib exports. */
@Module({ providers: [EventsRepository], exports: [EventsRepository] })
export class EventStoreModule {}
