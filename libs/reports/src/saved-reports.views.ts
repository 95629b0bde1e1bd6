import { SavedReport } from './saved-reports.service';

/** Saved reports as the app API shows them. */

const stamps = (report: SavedReport) => ({
  created: report.createdAt.toISOString(),
  modified: report.updatedAt.toISOString(),
});

export function bookmarkJson(report: SavedReport<'bookmark'>) {
  return { id: report.id, name: report.name, params: report.definition, ...stamps(report) };
}

export function funnelJson(report: SavedReport<'funnel'>) {
  return { funnel_id: report.id, name: report.name, ...report.definition, ...stamps(report) };
}

export function retentionJson(report: SavedReport<'retention'>) {
  return { id: report.id, name: report.name, ...report.definition, ...stamps(report) };
}

export function cohortJson(report: SavedReport<'cohort'>) {
  return {
    id: report.id,
    name: report.name,
    description: report.description,
    is_visible: report.isVisible,
    definition: report.definition,
    ...stamps(report),
  };
}

export const ok = <T>(results: T) => ({ status: 'ok' as const, results });
