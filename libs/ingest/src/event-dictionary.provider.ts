import { EventDictionary } from '@analytics/events';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';

/**
 * The seam where the data dictionary's `dropped` flags reach ingestion. This default knows no
 * dictionary; the data-dictionary module provides one that reads the project's schemas.
 */
@Injectable()
export class EventDictionaryProvider {
  async forProject(_scope: ProjectScope): Promise<EventDictionary | undefined> {
    return undefined;
  }
}
