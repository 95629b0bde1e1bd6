import 'reflect-metadata';
import { runOneService } from '@analytics/service-map';
import { exitUnlessSupportedNode } from '@analytics/supported-node';

exitUnlessSupportedNode();
void runOneService('compliance');
