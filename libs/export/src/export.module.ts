import { LookupTablesReaderModule } from '@analytics/lookup-tables';
import { AuthModule } from '@analytics/auth';
import { IdentityRepository } from '@analytics/identity';
import { RateLimitsModule } from '@analytics/rate-limits';
import { Module } from '@nestjs/common';
import { ExportDrain } from './export-drain';
import { ExportController } from './export.controller';
import { ExportRepository } from './export.repository';
import { ExportService } from './export.service';

/** The raw event export, /api/2.0/export. */
@Module({
  imports: [AuthModule, RateLimitsModule, LookupTablesReaderModule],
  controllers: [ExportController],
  providers: [ExportRepository, ExportService, ExportDrain, IdentityRepository],
})
export class ExportModule {}
