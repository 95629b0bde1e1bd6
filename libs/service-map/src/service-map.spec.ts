import { loadConfig } from '@analytics/config';
import { JobsModule } from '@analytics/jobs';
import { DynamicModule } from '@nestjs/common';
import { engineNeeds, readinessNeeds } from './engine-needs';
import { serviceModules } from './service-map';

describe('the service map', () => {
  it('gives every row that runs jobs the same JobsModule object, so a process mounts one queue', async () => {
    const config = loadConfig({});
    const jobs = (await serviceModules(config, ['writer', 'management', 'compliance'])).filter(
      (module) => (module as DynamicModule).module === JobsModule,
    );
    expect(jobs).toHaveLength(3);
    expect(new Set(jobs).size).toBe(1);
  });

  it('makes each service ready on the engines it cannot serve without, not on every engine it opens', () => {
    const cluster = loadConfig({ KAFKA_BROKERS: 'kafka:9092' });
    expect(engineNeeds(cluster, ['ingest'])).toEqual({ postgres: true, kafka: true });
    expect(readinessNeeds(cluster, ['ingest'])).toEqual({ kafka: true });
    expect(readinessNeeds(cluster, ['query'])).toEqual({ postgres: true, clickhouse: true });
    expect(readinessNeeds(cluster, ['management'])).toEqual({ postgres: true });
    expect(readinessNeeds(cluster, ['writer'])).toEqual({ postgres: true, kafka: true, clickhouse: true });
    // Without a broker the gateway writes in-process: it needs what it opens.
    expect(readinessNeeds(loadConfig({}), ['ingest'])).toEqual({ postgres: true, clickhouse: true, kafka: false });
  });
});
