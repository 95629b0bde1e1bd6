import { AppConfig, ConfigModule } from '@analytics/config';
import { PostgresMigrator, PostgresModule } from '@analytics/postgres';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BenchProcess, poll } from './processes';

/** Migrates the benchmark's database and creates the one project it sends to. */
export async function createBenchProject(
  config: AppConfig,
): Promise<{ id: number; token: string; authorization: string }> {
  @Module({ imports: [ConfigModule.forRoot(config), PostgresModule, ProjectsModule] })
  class BenchSetupModule {}
  const context = await NestFactory.createApplicationContext(BenchSetupModule, { logger: ['error'] });
  try {
    await context.get(PostgresMigrator).migrate();
    const projects = context.get(ProjectsService);
    const organization = await projects.createOrganization('Benchmark');
    const { project, secret } = await projects.createProject(organization.id, 'Benchmark');
    return {
      id: project.id,
      token: project.token,
      authorization: `Basic ${Buffer.from(`${secret}:`).toString('base64')}`,
    };
  } finally {
    await context.close();
  }
}

/** Until the service answers /readyz 200; fails at once with its output if it exits. */
export async function waitReady(service: BenchProcess, url: string): Promise<void> {
  await poll(
    async () => {
      if (service.child.exitCode !== null) throw new Error(`${service.name} exited:\n${service.output()}`);
      const response = await fetch(`${url}/readyz`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${service.name} not ready`);
    },
    60_000,
    100,
  );
}
