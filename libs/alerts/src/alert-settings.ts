import { DeliverySettings } from './alert-webhook';

export const ALERT_SETTINGS = Symbol('ALERT_SETTINGS');

export interface AlertSettings extends DeliverySettings {
  /** When the sweep looks for due alerts: 5 past every hour, so the hour just ended has its late events. */
  sweepCron: string;
  /** How often this replica polls for check jobs. */
  pollingIntervalSeconds: number;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  maxAttempts: 4,
  backoffMs: 5_000,
  timeoutMs: 10_000,
  sweepCron: '5 * * * *',
  pollingIntervalSeconds: 5,
};
