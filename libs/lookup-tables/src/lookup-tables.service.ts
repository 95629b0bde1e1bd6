import { ProjectScope } from '@analytics/tenancy';
import { Injectable, Logger } from '@nestjs/common';
import { FailedRecord, parseLookupCsv } from './lookup-csv';
import { LookupTablesError, LookupTablesErrorCode } from './lookup-tables-error';
import { isUniqueViolation, LookupMapping, LookupTable, LookupTablesRepository } from './lookup-tables.repository';

/** A replace the CSV's checks refused: the real API's 400 with at most ten failed rows. */
export class LookupTableInvalid extends Error {
  constructor(
    message: string,
    readonly failedRecords: readonly FailedRecord[],
  ) {
    super(message);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notFound = (id: string) =>
  new LookupTablesError(LookupTablesErrorCode.NotFound, `Lookup table with id '${id}' was not found.`);

@Injectable()
export class LookupTablesService {
  private readonly logger = new Logger(LookupTablesService.name);

  constructor(private readonly repository: LookupTablesRepository) {}

  list(scope: ProjectScope): Promise<LookupTable[]> {
    return this.repository.list(scope);
  }

  async get(scope: ProjectScope, id: string): Promise<LookupTable> {
    const table = UUID.test(id) ? await this.repository.find(scope, id) : undefined;
    if (!table) throw notFound(id);
    return table;
  }

  /**
   * Replaces the table's rows with the CSV's, all or nothing: the rows go in under a new version,
   * then one Postgres update makes it current (readers never see half a table), then versions
   * older than the one replaced are deleted (the replaced one stays for reports already running).
   */
  async replace(scope: ProjectScope, id: string, csv: string): Promise<LookupTable> {
    await this.get(scope, id);
    const parsed = parseLookupCsv(csv);
    if (!parsed.ok) throw new LookupTableInvalid(parsed.error, parsed.failedRecords);
    const version = await this.repository.reserveVersion(scope, id);
    if (version === undefined) throw notFound(id);
    const tableVersion = { tableId: id, version };
    await this.repository.insertRows(scope, tableVersion, parsed.rows);
    const previous = await this.repository.switchVersion(scope, tableVersion, parsed.columns, parsed.rows.length);
    // A later replace already switched past this one: its rows are older than the current ones.
    const before = previous === undefined ? version + 1 : previous;
    await this.repository
      .deleteVersionsBefore(scope, id, before)
      .catch((error: Error) => this.logger.warn(`lookup table ${id}: old versions not deleted: ${error.message}`));
    return this.get(scope, id);
  }

  async create(scope: ProjectScope, name: string, mappedTo: LookupMapping | undefined): Promise<LookupTable> {
    const id = await this.mapping(() => this.repository.create(scope, name, mappedTo));
    return this.get(scope, id);
  }

  async update(
    scope: ProjectScope,
    id: string,
    changes: { name?: string; mappedTo?: LookupMapping | null },
  ): Promise<LookupTable> {
    await this.get(scope, id);
    if (!(await this.mapping(() => this.repository.update(scope, id, changes)))) throw notFound(id);
    return this.get(scope, id);
  }

  async delete(scope: ProjectScope, id: string): Promise<void> {
    if (!UUID.test(id) || !(await this.repository.delete(scope, id))) throw notFound(id);
  }

  /** A property maps to one table at a time, as in the real product's Lexicon. */
  private async mapping<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new LookupTablesError(
        LookupTablesErrorCode.MappingTaken,
        'that property is already mapped to another lookup table (a property maps to one table at a time)',
      );
    }
  }
}
