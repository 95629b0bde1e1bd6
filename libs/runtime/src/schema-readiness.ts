import { ClickHouseMigrator } from '@analytics/clickhouse';
import { ReadinessConditions } from '@analytics/observability';
import { PostgresMigrator } from '@analytics/postgres';
import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { describeLag, schemaLag } from './schema-lag';

/**
 * Readiness condition `schema`: not ready while a ledger of an engine this process opens lacks a
 * migration this build knows (the migration Job has not run yet, or failed), so a new pod never serves
 * on an old schema. Once seen current it stays current (ledgers only grow), and the check stops
 * reading the ledgers.
 */
@Injectable()
export class SchemaReadiness implements OnModuleInit {
  private current = false;

  constructor(
    private readonly conditions: ReadinessConditions,
    @Optional() private readonly postgres?: PostgresMigrator,
    @Optional() private readonly clickhouse?: ClickHouseMigrator,
  ) {}

  onModuleInit(): void {
    if (this.postgres || this.clickhouse) this.conditions.add('schema', () => this.check());
  }

  private async check(): Promise<void> {
    if (this.current) return;
    const lag = describeLag(await schemaLag(this.postgres, this.clickhouse));
    if (lag) throw new Error(lag);
    this.current = true;
  }
}
