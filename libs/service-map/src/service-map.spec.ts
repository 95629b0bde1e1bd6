import { loadConfig } from '@analytics/config';
import { JobsModule } from '@analytics/jobs';
import { DynamicModule } from '@nestjs/common';
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
});
