import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import {
  CohortDefinition,
  FunnelDefinition,
  InsightsParams,
  ReportsError,
  RetentionDefinition,
  ReportsErrorCode,
  validateCohortDefinition,
  validateFunnelDefinition,
  validateInsightsParams,
  validateRetentionDefinition,
} from '@analytics/report-definitions';
import { SavedReportsRepository } from './saved-reports.repository';
import { ReportKind, SavedReportRow } from './saved-reports.schema';

export interface DefinitionOf {
  bookmark: InsightsParams;
  funnel: FunnelDefinition;
  cohort: CohortDefinition;
  retention: RetentionDefinition;
}

/** A saved report with its validated definition. */
export interface SavedReport<K extends ReportKind = ReportKind> {
  id: number;
  projectId: number;
  kind: K;
  name: string;
  description: string;
  isVisible: boolean;
  definition: DefinitionOf[K];
  createdAt: Date;
  updatedAt: Date;
}

export interface NewSavedReport<K extends ReportKind> {
  name: string;
  description?: string;
  isVisible?: boolean;
  definition: DefinitionOf[K];
}

export interface SavedReportUpdate<K extends ReportKind> {
  name?: string;
  description?: string;
  isVisible?: boolean;
  /** Funnels and bookmarks merge the given top-level fields into the saved definition; a cohort's is replaced. */
  definition?: Partial<DefinitionOf[K]>;
}

interface KindRules<K extends ReportKind> {
  noun: string;
  validate(definition: DefinitionOf[K]): DefinitionOf[K];
  mergeOnUpdate: boolean;
}

const RULES: { [K in ReportKind]: KindRules<K> } = {
  bookmark: { noun: 'bookmark', validate: validateInsightsParams, mergeOnUpdate: true },
  funnel: { noun: 'funnel', validate: validateFunnelDefinition, mergeOnUpdate: true },
  cohort: { noun: 'cohort', validate: validateCohortDefinition, mergeOnUpdate: false },
  retention: { noun: 'retention report', validate: validateRetentionDefinition, mergeOnUpdate: true },
};

function toReport<K extends ReportKind>(row: SavedReportRow): SavedReport<K> {
  return { ...row, kind: row.kind as K, definition: row.definition as DefinitionOf[K] };
}

/** Saved insights, funnels, cohorts and retention reports: definitions are validated (and their expressions compiled) on every write. */
@Injectable()
export class SavedReportsService {
  constructor(private readonly repository: SavedReportsRepository) {}

  async list<K extends ReportKind>(scope: ProjectScope, kind: K): Promise<SavedReport<K>[]> {
    return (await this.repository.list(scope, kind)).map((row) => toReport<K>(row));
  }

  async get<K extends ReportKind>(scope: ProjectScope, kind: K, id: number): Promise<SavedReport<K>> {
    const row = await this.repository.find(scope, kind, id);
    if (!row) throw this.notFound(kind, id);
    return toReport<K>(row);
  }

  async create<K extends ReportKind>(scope: ProjectScope, kind: K, report: NewSavedReport<K>): Promise<SavedReport<K>> {
    const definition = RULES[kind].validate(report.definition);
    const row = await this.repository.create(scope, {
      kind,
      name: report.name,
      description: report.description ?? '',
      isVisible: report.isVisible ?? true,
      definition,
    });
    return toReport<K>(row);
  }

  async update<K extends ReportKind>(
    scope: ProjectScope,
    kind: K,
    id: number,
    update: SavedReportUpdate<K>,
  ): Promise<SavedReport<K>> {
    const rules = RULES[kind];
    let definition: DefinitionOf[K] | undefined;
    if (update.definition !== undefined) {
      const saved = rules.mergeOnUpdate ? (await this.get(scope, kind, id)).definition : {};
      definition = rules.validate({ ...saved, ...update.definition } as DefinitionOf[K]);
    }
    const row = await this.repository.update(scope, kind, id, {
      ...(update.name !== undefined && { name: update.name }),
      ...(update.description !== undefined && { description: update.description }),
      ...(update.isVisible !== undefined && { isVisible: update.isVisible }),
      ...(definition !== undefined && { definition }),
    });
    if (!row) throw this.notFound(kind, id);
    return toReport<K>(row);
  }

  async delete(scope: ProjectScope, kind: ReportKind, id: number): Promise<void> {
    if (!(await this.repository.delete(scope, kind, id))) throw this.notFound(kind, id);
  }

  private notFound(kind: ReportKind, id: number): ReportsError {
    return new ReportsError(ReportsErrorCode.NotFound, `${RULES[kind].noun} ${id} not found in this project`);
  }
}
