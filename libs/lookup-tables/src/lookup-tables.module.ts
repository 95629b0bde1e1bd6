import { AuthModule } from '@analytics/auth';
import { jsonBody } from '@analytics/http';
import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { LookupTablesIngestController } from './lookup-tables-ingest.controller';
import { LookupTablesController } from './lookup-tables.controller';
import { LookupTablesRepository } from './lookup-tables.repository';
import { LookupTablesService } from './lookup-tables.service';
import { LookupTablesReader } from './report-lookups';

/** The ingestion host's GET /lookup-tables and PUT /lookup-tables/{id} (the ingest service's part). */
@Module({
  imports: [AuthModule],
  controllers: [LookupTablesIngestController],
  providers: [LookupTablesRepository, LookupTablesService],
})
export class LookupTablesIngestModule {}

/** The tables' definitions and mappings on the app API (a management service part). */
@Module({
  imports: [AuthModule],
  controllers: [LookupTablesController],
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
