export { EngineName } from './engine-probes';
export { ManagementListener } from './management-listener';
export { MetricsService } from './metrics.service';
export { ObservabilityModule } from './observability.module';
export { ReadinessConditions } from './readiness-conditions';
