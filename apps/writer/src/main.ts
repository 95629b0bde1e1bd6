// First: on an unsupported Node, one line and exit 1 before anything else loads.
import '@analytics/supported-node';
import 'reflect-metadata';
import { runOneService } from '@analytics/service-map';

void runOneService('writer');
