import { AppConfig, IntakeOptions, oncePerConfig, ServiceName } from '@analytics/config';
import { EngineNeeds } from '@analytics/runtime';
import { DynamicModule, Module, Type } from '@nestjs/common';

export type ServiceModule = DynamicModule | Type<unknown>;

export interface ServiceDefinition {
  /** What the process calls itself in logs and on its OpenAPI page. */
  title: string;
  /** The engines the service opens (without a broker, `engineNeeds` turns Kafka into in-process ClickHouse writes). */
  engines: EngineNeeds;
  /**
   * The engines without which the service cannot answer its traffic: its /readyz probes these only, so
   * an engine the service touches now and then (or only from background jobs) cannot take every one of
   * its pods out of its Service at once. A table in docs/architecture.md says why for each row.
   */
  readiness: EngineNeeds;
  /**
   * The Nest modules the service mounts: its controllers, consumers and jobs. Each row loads its libs
   * here, when a process runs it, so a process holds the code of its own services only (the gateway
   * ~20 MB less resident than with every service's code; docs/benchmarks/2026-11-25-issue-21-memory.md).
   */
  modules(config: AppConfig): Promise<ServiceModule[]>;
}

/**
 * The one JobsModule of the process (global), shared by every row that runs or files jobs
 * (compliance, pipeline windows, warehouse-import runs and manual syncs): one module object per config, so Nest mounts it once however many rows a
 * process runs.
 */
export const jobsModule = oncePerConfig(async (config): Promise<DynamicModule> => {
  const { JobsModule } = await import('@analytics/jobs');
  return JobsModule.forRoot({ expiryCheckIntervalSeconds: config.jobsExpiryCheckSeconds });
});

/** Intake (the gateway's, warehouse imports') hands records to Kafka when there is a broker, else to the writers in-process. */
export const intakeOf = (config: AppConfig): IntakeOptions => ({ broker: config.kafka !== undefined });

/**
 * The one service map: what each deployable mounts. The routes each one owns are in the role matrix
 * (`RouteAccess.service`); a test boots every thin app and checks the two agree, and that the
 * Kubernetes ingress sends each route to its owner. The standalone mounts the union.
 */
export const SERVICE_MAP: Record<ServiceName, ServiceDefinition> = {
  ingest: {
    title: 'Ingestion gateway',
    engines: { postgres: true, kafka: true },
    // Credentials and dropped rules come from Postgres through caches (30 s, 2 s): a Postgres failover
    // costs new credentials only, while without Kafka no request can be acknowledged.
    readiness: { kafka: true },
    modules: async (config) => {
      const [{ IngestModule }, { ProfilesIngestModule }] = await Promise.all([
        import('@analytics/ingest'),
        import('@analytics/profiles'),
      ]);
      return [IngestModule.forRoot(intakeOf(config)), ProfilesIngestModule.forRoot(intakeOf(config))];
    },
  },
  writer: {
    title: 'Events writer',
    engines: { postgres: true, kafka: true, clickhouse: true },
    readiness: { postgres: true, kafka: true, clickhouse: true },
    // Without a broker there is nothing to consume: the gateway writes in-process. Warehouse-import
    // runs are jobs here, in the role that reaches Kafka.
    modules: async (config) => {
      const [
        { EventsConsumerModule },
        { ProfilesWriterModule },
        { IdentitiesConsumerModule },
        { WarehouseImportsWorkerModule },
      ] = await Promise.all([
        import('@analytics/event-writer'),
        import('@analytics/profiles'),
        import('@analytics/identity'),
        import('@analytics/warehouse-imports'),
      ]);
      return [
        ...(config.kafka ? [EventsConsumerModule, ProfilesWriterModule, IdentitiesConsumerModule] : []),
        await jobsModule(config),
        WarehouseImportsWorkerModule.forRoot(intakeOf(config)),
      ];
    },
  },
  query: {
    title: 'Query service',
    engines: { postgres: true, clickhouse: true },
    // Every query reads ClickHouse; credentials, saved cohorts and project settings come from Postgres.
    readiness: { postgres: true, clickhouse: true },
    // The legacy /api/2.0/annotations is on the query host (the ingress sends /api/2.0 here), and so are
    // shared boards, whose tiles are queries.
    modules: async () => {
      const [{ QueryModule, ProfilesQueryModule }, { LegacyAnnotationsModule }, { SharedBoardsModule }] =
        await Promise.all([import('@analytics/query'), import('@analytics/annotations'), import('@analytics/boards')]);
      return [QueryModule, ProfilesQueryModule, LegacyAnnotationsModule, SharedBoardsModule];
    },
  },
  export: {
    title: 'Export service',
    engines: { postgres: true, clickhouse: true },
    // Exports read ClickHouse; credentials, pipelines and their jobs live in Postgres.
    readiness: { postgres: true, clickhouse: true },
    modules: async (config) => {
      const [{ ExportModule }, { DownloadsModule }, { PipelinesModule }] = await Promise.all([
        import('@analytics/export'),
        import('@analytics/object-store'),
        import('@analytics/pipelines'),
      ]);
      return [ExportModule, DownloadsModule, await jobsModule(config), PipelinesModule.forRoot()];
    },
  },
  management: {
    title: 'Management service',
    engines: { postgres: true, clickhouse: true },
    // Accounts, projects, the dictionary and saved reports are Postgres; ClickHouse only serves usage,
    // backups, `schemas/seen` and lookup tables' rows, which fail alone when it is away.
    readiness: { postgres: true },
    // The job queue (Postgres only) lets a manual sync file its run job at once; the web console's
    // static files ride with the app API (docs/console.md); a backup is an app API call (docs/backup.md);
    // alerts' checks are jobs here, beside the saved reports they read (docs/alerts.md).
    modules: async (config) => {
      const [
        { ManagementModule, DictionaryModule, ConsoleModule },
        { AnnotationsModule },
        { SavedReportsModule },
        { GroupKeysModule },
        { WarehouseImportsModule },
        { UsageModule },
        { BackupModule },
        { BoardsModule },
        { AlertsModule },
        { LookupTablesModule },
      ] = await Promise.all([
        import('@analytics/management'),
        import('@analytics/annotations'),
        import('@analytics/reports'),
        import('@analytics/profiles'),
        import('@analytics/warehouse-imports'),
        import('@analytics/usage'),
        import('@analytics/backup'),
        import('@analytics/boards'),
        import('@analytics/alerts'),
        import('@analytics/lookup-tables'),
      ]);
      return [
        ManagementModule,
        AnnotationsModule,
        LookupTablesModule,
        DictionaryModule,
        SavedReportsModule,
        BoardsModule,
        GroupKeysModule,
        await jobsModule(config),
        WarehouseImportsModule,
        UsageModule.forRoot({ gauges: config.usageMetrics }),
        BackupModule,
        AlertsModule.forRoot(),
        ConsoleModule,
      ];
    },
  },
  compliance: {
    title: 'Compliance service',
    engines: { postgres: true, clickhouse: true },
    // Its API files and reads jobs in Postgres; the jobs that touch ClickHouse retry on their own.
    readiness: { postgres: true },
    modules: async (config) => {
      const [{ ComplianceModule }, { RetentionModule }] = await Promise.all([
        import('@analytics/compliance'),
        import('@analytics/retention'),
      ]);
      return [
        await jobsModule(config),
        RetentionModule,
        ComplianceModule.forRoot({
          linkTtlSeconds: config.complianceLinkTtlSeconds,
          heartbeatSeconds: config.complianceHeartbeatSeconds,
        }),
      ];
    },
  },
};

/** The modules of these services, in the map's order (a module two rows share appears twice: Nest mounts it once). */
export async function serviceModules(
  config: AppConfig,
  services: readonly ServiceName[] = config.services,
): Promise<ServiceModule[]> {
  const rows = (Object.keys(SERVICE_MAP) as ServiceName[]).filter((service) => services.includes(service));
  const modules = await Promise.all(rows.map((service) => SERVICE_MAP[service].modules(config)));
  return modules.flat();
}

/** Holds the services' modules in a root's imports (Nest resolves a promised module before it scans). */
@Module({})
class ServicesModule {}

/** These services' modules as one import of a root module, loaded when Nest builds the application. */
export function servicesModule(
  config: AppConfig,
  services: readonly ServiceName[] = config.services,
): Promise<DynamicModule> {
  return serviceModules(config, services).then((modules) => ({ module: ServicesModule, imports: modules }));
}
