import { MetricsService } from '@analytics/observability';
import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';

@Injectable()
export class WriterMetrics {
  readonly rowsInserted: Counter<string>;
  readonly insertSeconds: Histogram<string>;
  readonly insertRetries: Counter<string>;
  readonly deadLetters: Counter<string>;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.rowsInserted = new Counter({
      name: 'analytics_writer_rows_inserted_total',
      help: 'Event rows inserted into ClickHouse',
      registers,
    });
    this.insertSeconds = new Histogram({
      name: 'analytics_writer_insert_seconds',
      help: 'Duration of one ClickHouse insert of a writer batch',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.insertRetries = new Counter({
      name: 'analytics_writer_insert_retries_total',
      help: 'Inserts retried after a passing failure',
      registers,
    });
    this.deadLetters = new Counter({
      name: 'analytics_writer_dead_letters_total',
      help: 'Kafka messages sent to the dead-letter topic',
      registers,
    });
  }
}
