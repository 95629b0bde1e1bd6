import { Injectable } from '@nestjs/common';

/** The time, behind an injectable so the cache and the "seen" window test with controlled time. */
@Injectable()
export class DictionaryClock {
  now(): number {
    return Date.now();
  }
}
