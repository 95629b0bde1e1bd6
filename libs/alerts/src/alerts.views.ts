import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AlertDeliveryRow, AlertRow } from './alerts.schema';

/** Alerts as the app API shows them: never the signing secret, which only the creation answer holds. */
export function alertJson(alert: AlertRow) {
  return {
    id: alert.id,
    name: alert.name,
    bookmark_id: alert.bookmarkId,
    rule: alert.rule,
    threshold: alert.threshold,
    series: alert.series,
    cadence: alert.cadence,
    webhook_url: alert.webhookUrl,
    enabled: alert.enabled,
    last_state: alert.lastState,
    last_period: alert.lastPeriod,
    last_checked: alert.lastCheckedAt?.toISOString() ?? null,
    created: alert.createdAt.toISOString(),
    modified: alert.updatedAt.toISOString(),
  };
}

export function deliveryJson(delivery: AlertDeliveryRow) {
  return {
    at: delivery.at.toISOString(),
    period: delivery.period,
    value: delivery.value,
    previous_value: delivery.previousValue,
    fired: delivery.fired,
    test: delivery.test,
    attempt: delivery.attempt,
    http_status: delivery.httpStatus,
    error: delivery.error,
  };
}

/** OpenAPI response schemas (the answers above in the `{status, results}` envelope). */
export class AlertView {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty() bookmark_id!: number;
  @ApiProperty({ enum: ['above', 'below', 'changed_by_percent'] }) rule!: string;
  @ApiProperty() threshold!: number;
  @ApiProperty({ type: String, nullable: true, description: 'The metric read; null: the report’s first' })
  series!: string | null;
  @ApiProperty({ enum: ['hourly', 'daily'] }) cadence!: string;
  @ApiProperty() webhook_url!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ enum: ['pending', 'ok', 'fired', 'error'] }) last_state!: string;
  @ApiProperty({ type: String, nullable: true }) last_period!: string | null;
  @ApiProperty({ type: String, nullable: true }) last_checked!: string | null;
  @ApiProperty() created!: string;
  @ApiProperty() modified!: string;
}

export class CreatedAlertView extends AlertView {
  @ApiPropertyOptional({ description: 'The HMAC-SHA256 key of X-Alert-Signature; shown only in this answer' })
  signing_secret!: string;
}

export class AlertDeliveryView {
  @ApiProperty() at!: string;
  @ApiProperty({ type: String, nullable: true }) period!: string | null;
  @ApiProperty({ type: Number, nullable: true }) value!: number | null;
  @ApiProperty({ type: Number, nullable: true }) previous_value!: number | null;
  @ApiProperty() fired!: boolean;
  @ApiProperty() test!: boolean;
  @ApiProperty({ description: '0 for a check that sent nothing' }) attempt!: number;
  @ApiProperty({ type: Number, nullable: true }) http_status!: number | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
}

export class AlertTestView {
  @ApiProperty() delivered!: boolean;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: Number, nullable: true }) http_status!: number | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
}
