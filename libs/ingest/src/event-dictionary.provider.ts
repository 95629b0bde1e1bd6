import { EventDictionary } from '@analytics/events';
import { Injectable } from '@nestjs/common';

/**
 * The seam where the data dictionary's `dropped` flags reach ingestion. This default knows no
 * dictionary; the data-dictionary module provides one that reads the project's schemas.
 */
@Injectable()
export class EventDictionaryProvider {
  async forProject(_projectId: number): Promise<EventDictionary | undefined> {
    return undefined;
  }
}
