import { OutboundPolicy } from '@analytics/outbound';
import { SecretBox } from '@analytics/secrets';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { destinationHost, DestinationAccess } from './destination';
import { PEOPLE_TABLE, Pipeline } from './pipeline-definition';
import { PipelineExportRepository } from './pipeline-export.repository';
import {
  eventsObjectKey,
  loadStatementsKey,
  manifestKey,
  peopleObjectKey,
  PipelineObject,
  tablesOf,
} from './pipeline-layout';
import { PipelineWindow } from './pipeline-windows';
import { loadStatements } from './warehouse-statements';

export interface WindowResult {
  rows: number;
  fingerprint: string;
  objects: string[];
}

/**
 * Exports one window: the data objects, the warehouse's load statements (if any), then the
 * manifest, last, so a reader that finds a manifest finds every object it lists. Every name is
 * deterministic: running a window again overwrites.
 */
@Injectable()
export class WindowExportService {
  constructor(
    private readonly exports: PipelineExportRepository,
    private readonly secrets: SecretBox,
    private readonly outbound: OutboundPolicy,
  ) {}

  /** `scope`: the pipeline's project, made by the runner from the pipeline's stored row. */
  async export(
    scope: ProjectScope,
    pipeline: Pipeline,
    sealedSecret: string | undefined,
    window: PipelineWindow,
    at: Date,
    signal?: AbortSignal,
  ): Promise<WindowResult> {
    // Again at each run: the name may resolve elsewhere than when the pipeline was created, or the allowlist may have changed.
    await this.outbound.check(destinationHost(pipeline.destination), 'destination');
    const access: DestinationAccess = {
      destination: pipeline.destination,
      secretAccessKey: sealedSecret ? this.secrets.open(sealedSecret) : undefined,
    };
    let objects: PipelineObject[];
    let rows: number;
    let fingerprint: string;
    if (pipeline.dataSource === 'people') {
      const key = peopleObjectKey(pipeline);
      rows = await this.exports.writePeople(scope, pipeline, access, key, signal);
      fingerprint = String(rows);
      objects = [{ table: PEOPLE_TABLE, key }];
    } else {
      // Taken before the data: rows that land during the export make the next sync check differ, never hide.
      ({ rows, fingerprint } = await this.exports.fingerprint(scope, window, signal));
      const tables = tablesOf(
        pipeline,
        pipeline.schemaType === 'monoschema' ? ['*'] : await this.exports.eventNames(scope, window, signal),
      );
      objects = [];
      for (const [table, events] of tables) {
        const key = eventsObjectKey(pipeline, table, window);
        await this.exports.writeEvents(
          scope,
          pipeline,
          access,
          key,
          table,
          pipeline.schemaType === 'monoschema' ? undefined : events,
          window,
          signal,
        );
        objects.push({ table, key });
      }
    }
    const statements = loadStatements(pipeline, window, objects);
    if (statements) await this.exports.writeText(access, loadStatementsKey(pipeline, window), statements, signal);
    const manifest = {
      pipeline: pipeline.name,
      project_id: pipeline.projectId,
      window: { from: window.start.toISOString(), to: window.end.toISOString() },
      format: pipeline.dataFormat,
      rows,
      exported_at: at.toISOString(),
      objects: objects.map((o) => ({ table: o.table, key: `${pipeline.destination.prefix}${o.key}` })),
    };
    await this.exports.writeText(
      access,
      manifestKey(pipeline, window),
      `${JSON.stringify(manifest, null, 2)}\n`,
      signal,
    );
    return { rows, fingerprint, objects: objects.map((o) => o.key) };
  }
}
