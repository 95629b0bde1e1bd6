import 'reflect-metadata';
import { runOneService } from '@analytics/service-map';

void runOneService('ingest');
