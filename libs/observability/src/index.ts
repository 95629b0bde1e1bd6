export { EngineName, EngineProbes } from './engine-probes';
export { MetricsService } from './metrics.service';
export { ObservabilityModule } from './observability.module';
export { REQUEST_ID_HEADER } from './request-id';
