import { Global, Module } from '@nestjs/common';
import { Clock, SystemClock } from './clock';
import { IdSource, RandomIds } from './id-source';

/** The system clock and random ids for every module of the process; tests override either provider. */
@Global()
@Module({
  providers: [
    { provide: Clock, useClass: SystemClock },
    { provide: IdSource, useClass: RandomIds },
  ],
  exports: [Clock, IdSource],
})
export class ClockModule {}
