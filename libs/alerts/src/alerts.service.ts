import { OutboundPolicy, OutboundRefused } from '@analytics/outbound';
import { ReportsError, ReportsErrorCode } from '@analytics/report-definitions';
import { SavedReport, SavedReportsService } from '@analytics/reports';
import { generateCredential, SecretBox } from '@analytics/secrets';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { AlertCadence, AlertRule } from './alert-rule';
import { AlertsError, AlertsErrorCode, invalidAlert } from './alerts-error';
import { AlertChanges, AlertsRepository } from './alerts.repository';
import { AlertDeliveryRow, AlertRow } from './alerts.schema';

export interface AlertInput {
  name: string;
  bookmarkId: number;
  rule: AlertRule;
  threshold: number;
  series?: string | null;
  cadence: AlertCadence;
  webhookUrl: string;
  enabled?: boolean;
}

/** A new alert, with its signing secret in clear: shown once, at creation. */
export interface CreatedAlert {
  alert: AlertRow;
  signingSecret: string;
}

const MAX_URL_LENGTH = 2048;

/** Alerts of a project: each write checks its report, rule and webhook URL (docs/alerts.md). */
@Injectable()
export class AlertsService {
  constructor(
    private readonly repository: AlertsRepository,
    private readonly reports: SavedReportsService,
    private readonly outbound: OutboundPolicy,
    private readonly secrets: SecretBox,
  ) {}

  list(scope: ProjectScope): Promise<AlertRow[]> {
    return this.repository.list(scope);
  }

  async get(scope: ProjectScope, id: number): Promise<AlertRow> {
    const alert = await this.repository.find(scope, id);
    if (!alert) throw new AlertsError(AlertsErrorCode.NotFound, `alert ${id} not found in this project`);
    return alert;
  }

  async create(scope: ProjectScope, input: AlertInput): Promise<CreatedAlert> {
    await this.check(scope, input);
    const signingSecret = `whsec_${generateCredential()}`;
    const alert = await this.repository.create(scope, {
      name: input.name,
      bookmarkId: input.bookmarkId,
      rule: input.rule,
      threshold: input.threshold,
      series: input.series ?? null,
      cadence: input.cadence,
      webhookUrl: input.webhookUrl,
      signingSecret: this.secrets.seal(signingSecret),
      enabled: input.enabled ?? true,
    });
    return { alert, signingSecret };
  }

  async update(scope: ProjectScope, id: number, changes: AlertChanges): Promise<AlertRow> {
    const merged = { ...(await this.get(scope, id)), ...changes };
    await this.check(scope, merged);
    const row = await this.repository.update(scope, id, changes);
    if (!row) throw new AlertsError(AlertsErrorCode.NotFound, `alert ${id} not found in this project`);
    return row;
  }

  async delete(scope: ProjectScope, id: number): Promise<void> {
    if (!(await this.repository.delete(scope, id))) {
      throw new AlertsError(AlertsErrorCode.NotFound, `alert ${id} not found in this project`);
    }
  }

  async history(scope: ProjectScope, id: number): Promise<AlertDeliveryRow[]> {
    await this.get(scope, id);
    return this.repository.history(scope, id);
  }

  /** The saved insights report an alert reads; a missing one is the request's fault (400), not a missing alert. */
  async bookmark(scope: ProjectScope, bookmarkId: number): Promise<SavedReport<'bookmark'>> {
    try {
      return await this.reports.get(scope, 'bookmark', bookmarkId);
    } catch (error) {
      if (error instanceof ReportsError && error.code === ReportsErrorCode.NotFound) {
        throw invalidAlert(`bookmark_id: no saved insights report ${bookmarkId} in this project`);
      }
      throw error;
    }
  }

  private async check(scope: ProjectScope, alert: Omit<AlertInput, 'enabled'>): Promise<void> {
    if (!Number.isFinite(alert.threshold)) throw invalidAlert('threshold: must be a finite number');
    if (alert.rule === 'changed_by_percent' && alert.threshold <= 0) {
      throw invalidAlert('threshold: a changed_by_percent rule needs a percentage above 0');
    }
    await this.checkUrl(alert.webhookUrl);
    await this.bookmark(scope, alert.bookmarkId);
  }

  /** http(s) only, and a host the outbound policy allows now (it is checked again before every delivery). */
  private async checkUrl(text: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw invalidAlert('webhook_url: not a URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidAlert('webhook_url: must be http or https');
    if (text.length > MAX_URL_LENGTH) throw invalidAlert(`webhook_url: longer than ${MAX_URL_LENGTH} characters`);
    try {
      await this.outbound.check(url.hostname, 'webhook_url');
    } catch (error) {
      if (error instanceof OutboundRefused) throw invalidAlert(error.message);
      throw error;
    }
  }
}
