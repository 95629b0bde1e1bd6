import { Injectable } from '@nestjs/common';

/** The time, behind an injectable so link expiry is tested with controlled time. */
@Injectable()
export class ObjectStoreClock {
  now(): number {
    return Date.now();
  }
}
