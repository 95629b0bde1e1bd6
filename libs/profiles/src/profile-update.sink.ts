import { ProfileUpdate } from '@analytics/profile-updates';

/** An update the sink refused or could not apply, by its position in the published list. */
export interface RefusedUpdate {
  position: number;
  message: string;
}

/**
 * Where validated updates go. `publish` resolves once they are durable: acknowledged by the broker
 * (acks=all), or, without a broker, applied to Postgres and mirrored. It rejects with
 * SinkUnavailableError when they are not (the gateway answers 503 and the client retries).
 */
export abstract class ProfileUpdateSink {
  abstract publish(updates: ProfileUpdate[]): Promise<RefusedUpdate[]>;
}
