import { AuthModule } from '@analytics/auth';
import { jsonBody } from '@analytics/http';
import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { LookupTablesIngestController } from './lookup-tables-ingest.controller';
import { LookupTablesController } from './lookup-tables.controller';
import { LookupTablesRepository } from './lookup-tables.repository';
import { LookupTablesService } from './lookup-tables.service';
import { LookupTablesReader } from './report-lookups';

/**
 * A management service part: the tables' definitions and mappings on the app API, and the real
 * API's GET /lookup-tables and PUT /lookup-tables/{id}, which the ingress sends here from the
 * ingestion host (the gateway neither holds 100 MB bodies nor opens ClickHouse).
 */
@Module({
  imports: [AuthModule],
  controllers: [LookupTablesController, LookupTablesIngestController],
  providers: [LookupTablesRepository, LookupTablesService],
})
export class LookupTablesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody('app')).forRoutes(LookupTablesController);
  }
}

/** What reports import to look columns up: the mapped tables' rows as SQL sources. */
@Module({
  providers: [LookupTablesRepository, LookupTablesReader],
  exports: [LookupTablesReader],
})
export class LookupTablesReaderModule {}
