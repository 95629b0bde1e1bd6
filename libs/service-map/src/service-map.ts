import { AnnotationsModule } from '@analytics/annotations';
import { ComplianceModule } from '@analytics/compliance';
import { AppConfig, oncePerConfig, ServiceName } from '@analytics/config';
import { ConsoleModule } from '@analytics/console';
import { DictionaryModule } from '@analytics/dictionary';
import { EventWriterModule } from '@analytics/event-writer';
import { IdentityModule } from '@analytics/identity';
import { ExportModule } from '@analytics/export';
import { DownloadsModule } from '@analytics/object-store';
import { IngestModule } from '@analytics/ingest';
import { JobsModule } from '@analytics/jobs';
import { ManagementModule } from '@analytics/management';
import { PipelinesModule } from '@analytics/pipelines';
import { GroupKeysModule, ProfilesIngestModule, ProfilesQueryModule, ProfilesWriterModule } from '@analytics/profiles';
import { QueryModule } from '@analytics/query';
import { SavedReportsModule } from '@analytics/reports';
import { EngineNeeds } from '@analytics/runtime';
import { WarehouseImportsModule, WarehouseImportsWorkerModule } from '@analytics/warehouse-imports';
import { DynamicModule, Type } from '@nestjs/common';

export type ServiceModule = DynamicModule | Type<unknown>;

export interface ServiceDefinition {
  /** What the process calls itself in logs and on its OpenAPI page. */
  title: string;
  /** The engines the service opens (without a broker, `engineNeeds` turns Kafka into in-process ClickHouse writes). */
  engines: EngineNeeds;
  /** The Nest modules the service mounts: its controllers, consumers and jobs. */
  modules(config: AppConfig): ServiceModule[];
}

/**
 * The one JobsModule of the process (global), shared by every row that runs or files jobs
 * (compliance, pipeline windows, warehouse-import runs and manual syncs): one module object per config, so Nest mounts it once however many rows a
 * process runs.
 */
export const jobsModule = oncePerConfig((config): ServiceModule => JobsModule.forRoot({ expiryCheckIntervalSeconds: config.jobsExpiryCheckSeconds }));

/**
 * The one service map: what each deployable mounts. The routes each one owns are in the role matrix
 * (`RouteAccess.service`); a test boots every thin app and checks the two agree, and that the
 * Kubernetes ingress sends each route to its owner. The standalone mounts the union.
 */
export const SERVICE_MAP: Record<ServiceName, ServiceDefinition> = {
  ingest: {
    title: 'Ingestion gateway',
    engines: { postgres: true, kafka: true },
    modules: (config) => [IngestModule.forRoot(config), ProfilesIngestModule.forRoot(config)],
  },
  writer: {
    title: 'Events writer',
    engines: { postgres: true, kafka: true, clickhouse: true },
    // Without a broker there is nothing to consume: the gateway writes in-process. Warehouse-import
    // runs are jobs here, in the role that reaches Kafka.
    modules: (config) => [
      ...(config.kafka ? [EventWriterModule.forRoot(config), ProfilesWriterModule, IdentityModule.forRoot(config)] : []),
      jobsModule(config),
      WarehouseImportsWorkerModule.forRoot(config),
    ],
  },
  query: {
    title: 'Query service',
    engines: { postgres: true, clickhouse: true },
    modules: () => [QueryModule, ProfilesQueryModule],
  },
  export: {
    title: 'Export service',
    engines: { postgres: true, clickhouse: true },
    modules: (config) => [ExportModule, DownloadsModule, jobsModule(config), PipelinesModule.forRoot()],
  },
  management: {
    title: 'Management service',
    engines: { postgres: true, clickhouse: true },
    // The job queue (Postgres only) lets a manual sync file its run job at once; the web console's
    // static files ride with the app API (docs/console.md).
    modules: (config) => [ManagementModule, AnnotationsModule, DictionaryModule, SavedReportsModule, GroupKeysModule, jobsModule(config), WarehouseImportsModule, ConsoleModule],
  },
  compliance: {
    title: 'Compliance service',
    engines: { postgres: true, clickhouse: true },
    modules: (config) => [
      jobsModule(config),
      ComplianceModule.forRoot({ linkTtlSeconds: config.complianceLinkTtlSeconds, heartbeatSeconds: config.complianceHeartbeatSeconds }),
    ],
  },
};

/** The modules of these services, each once, in the map's order. */
export function serviceModules(config: AppConfig, services: readonly ServiceName[] = config.services): ServiceModule[] {
  const modules: ServiceModule[] = [];
  for (const service of Object.keys(SERVICE_MAP) as ServiceName[]) {
    if (services.includes(service)) modules.push(...SERVICE_MAP[service].modules(config));
  }
  return modules;
}
