import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { UnknownRouteFilter } from './unknown-route.filter';

/** Imported once by a service's root (or platform) module: every unmatched request gets {@link UnknownRouteFilter}. */
@Module({ providers: [{ provide: APP_FILTER, useClass: UnknownRouteFilter }] })
export class UnknownRoutesModule {}
