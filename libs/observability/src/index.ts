export { MetricsService } from './metrics.service';
export { ObservabilityModule } from './observability.module';
