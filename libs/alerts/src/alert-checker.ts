import { Clock } from '@analytics/clock';
import { OutboundPolicy } from '@analytics/outbound';
import { InsightsService, TimeZone } from '@analytics/query';
import { SavedReport } from '@analytics/reports';
import { SecretBox } from '@analytics/secrets';
import { ProjectScope } from '@analytics/tenancy';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { latestCompletePeriod, PeriodValue, ReportUnit, ruleFires } from './alert-rule';
import { ALERT_SETTINGS, AlertSettings } from './alert-settings';
import { DeliveryAttempt, deliverWebhook } from './alert-webhook';
import { invalidAlert } from './alerts-error';
import { AlertsRepository } from './alerts.repository';
import { AlertRow } from './alerts.schema';
import { AlertsService } from './alerts.service';

const OVERALL = '$overall';

/** The report's latest complete period for the alert's series. */
interface Reading {
  report: SavedReport<'bookmark'>;
  series: string;
  current?: PeriodValue;
}

/** What the test button answers. */
export interface TestOutcome {
  delivered: boolean;
  attempts: number;
  http_status: number | null;
  error: string | null;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One alert's check: the saved report computed by the query API's own service, the rule applied to
 * its latest complete period, and, when it fires, a signed webhook. A period is claimed before it
 * is delivered, so it fires once whichever replica checks it, and a failure is recorded, never thrown.
 */
@Injectable()
export class AlertChecker {
  private readonly logger = new Logger(AlertChecker.name);

  constructor(
    private readonly alerts: AlertsService,
    private readonly repository: AlertsRepository,
    private readonly insights: InsightsService,
    private readonly outbound: OutboundPolicy,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    @Inject(ALERT_SETTINGS) private readonly settings: AlertSettings,
  ) {}

  async check(scope: ProjectScope, id: number): Promise<void> {
    const alert = await this.repository.find(scope, id);
    if (!alert?.enabled) return;
    let reading: Reading;
    try {
      reading = await this.read(scope, alert);
    } catch (error) {
      this.logger.warn(`alert ${alert.id}: the report could not be computed: ${message(error)}`);
      await this.repository.record(scope, { alertId: alert.id, fired: false, error: message(error) });
      await this.repository.setState(scope, alert.id, 'error');
      return;
    }
    const current = reading.current;
    if (!current || !(await this.repository.claimPeriod(scope, alert.id, current.period))) {
      // Nothing complete yet, or this period was evaluated already: only the check's time moves.
      await this.repository.setState(scope, alert.id, alert.lastState);
      return;
    }
    const evaluated = { alertId: alert.id, period: current.period, value: current.value };
    const previousValue = current.previous ?? null;
    if (!ruleFires(alert.rule, alert.threshold, current)) {
      await this.repository.record(scope, { ...evaluated, previousValue, fired: false });
      await this.repository.setState(scope, alert.id, 'ok');
      return;
    }
    const outcome = await this.deliver(scope, alert, reading, false);
    await this.repository.setState(scope, alert.id, outcome.error ? 'error' : 'fired');
  }

  /** Sends a delivery now, marked `test`, with the report's current reading when it computes; one attempt. */
  async test(scope: ProjectScope, id: number): Promise<TestOutcome> {
    const alert = await this.alerts.get(scope, id);
    const reading = await this.read(scope, alert);
    const outcome = await this.deliver(scope, alert, reading, true);
    return {
      delivered: !outcome.error,
      attempts: outcome.attempt,
      http_status: outcome.httpStatus ?? null,
      error: outcome.error ?? null,
    };
  }

  private async read(scope: ProjectScope, alert: AlertRow): Promise<Reading> {
    const report = await this.alerts.bookmark(scope, alert.bookmarkId);
    const result = await this.insights.run(scope, report.definition);
    const names = Object.keys(result.series);
    const series = alert.series ?? names[0];
    const values = result.series[series];
    if (values === undefined) {
      throw invalidAlert(`series: the report has no series "${series}" (it has: ${names.join(', ')})`);
    }
    // A breakdown's series holds one line per segment: the alert reads their total.
    const line = (result.headers.length > 1 ? values[OVERALL] : values) as Record<string, number>;
    return {
      report,
      series,
      current: latestCompletePeriod(
        line,
        report.definition.unit as ReportUnit,
        this.clock.now(),
        TimeZone.of(scope.timeZone),
      ),
    };
  }

  private async deliver(scope: ProjectScope, alert: AlertRow, reading: Reading, test: boolean) {
    const { report, series, current } = reading;
    const payload = {
      alert: { id: alert.id, name: alert.name, rule: alert.rule, threshold: alert.threshold, cadence: alert.cadence },
      report: { id: report.id, name: report.name, series, unit: report.definition.unit },
      project_id: scope.projectId,
      period: current?.period ?? null,
      value: current?.value ?? null,
      previous_value: current?.previous ?? null,
      threshold: alert.threshold,
      fired: current ? ruleFires(alert.rule, alert.threshold, current) : false,
      test,
      link: `/insights?report=${report.id}`,
      sent_at: new Date(this.clock.now()).toISOString(),
    };
    const settings = test ? { ...this.settings, maxAttempts: 1 } : this.settings;
    const record = (attempt: DeliveryAttempt) =>
      this.repository.record(scope, {
        alertId: alert.id,
        period: current?.period ?? null,
        value: current?.value ?? null,
        previousValue: current?.previous ?? null,
        fired: !test,
        test,
        attempt: attempt.attempt,
        httpStatus: attempt.httpStatus ?? null,
        error: attempt.error ?? null,
      });
    const secret = this.secrets.open(alert.signingSecret);
    return deliverWebhook(alert.webhookUrl, secret, payload, this.outbound, settings, record);
  }
}
