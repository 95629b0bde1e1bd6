import { DomainError } from '@analytics/errors';
import { AppApiController, QueryFamilyController, UnknownRoutesModule } from '@analytics/http';
import {
  CanActivate,
  Controller,
  Get,
  INestApplication,
  Injectable,
  MiddlewareConsumer,
  Module,
  NestModule,
  NotFoundException,
  Post,
  RequestMethod,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';

@Injectable()
class OpenAccess implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@AppApiController('api/app/things', { tag: 'things', access: OpenAccess })
class ThingsController {
  @Get()
  list() {
    return { status: 'ok', results: [] };
  }

  @Post()
  create() {
    throw new DomainError('rate_limited', 429, 'slow down', 7);
  }
}

@QueryFamilyController(['api/query', 'api/2.0'], { tag: 'things', access: OpenAccess })
class ReportController {
  @Get('report')
  report() {
    return {};
  }
}

/** Stands for an ingestion controller: no family filter, answers its own errors. */
@Controller()
class TrackController {
  @Post('track')
  track() {
    return 1;
  }

  @Get('gone')
  gone() {
    throw new NotFoundException('that batch is gone');
  }
}

@Module({ imports: [UnknownRoutesModule], controllers: [ThingsController, ReportController, TrackController] })
class TinyModule implements NestModule {
  /** As the services' request logger is (nestjs-pino): a route for every method and path, that each request passes. */
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply((_req: unknown, _res: unknown, next: () => void) => next())
      .forRoutes({ path: '{/*splat}', method: RequestMethod.ALL });
  }
}

describe('requests no route takes', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    app = await NestFactory.create(TinyModule, { logger: false, bodyParser: false });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(() => app.close());

  const call = async (method: string, path: string) => {
    const response = await fetch(`${base}${path}`, { method });
    const text = await response.text();
    return { status: response.status, allow: response.headers.get('allow'), body: text ? JSON.parse(text) : undefined };
  };

  it('answers an unknown app API path in the app shape', async () => {
    expect(await call('GET', '/api/app/nope')).toEqual({
      status: 404,
      allow: null,
      body: { status: 'error', error: 'no such endpoint: GET /api/app/nope' },
    });
  });

  it('answers unknown query and export paths in the query shape, with the request', async () => {
    expect(await call('GET', '/api/query/nope?from_date=2024-01-01')).toEqual({
      status: 404,
      allow: null,
      body: { request: '/api/query/nope?from_date=2024-01-01', error: 'no such endpoint: GET /api/query/nope' },
    });
    expect((await call('POST', '/api/2.0/nope')).body).toEqual({
      request: '/api/2.0/nope',
      error: 'no such endpoint: POST /api/2.0/nope',
    });
  });

  it('answers ingestion and any other path in the SDK transport shape', async () => {
    expect(await call('GET', '/nope')).toEqual({
      status: 404,
      allow: null,
      body: { error: 'no such endpoint: GET /nope', status: 0 },
    });
    expect(await call('POST', '/track/extra')).toEqual({
      status: 404,
      allow: null,
      body: { error: 'no such endpoint: POST /track/extra', status: 0 },
    });
  });

  it('answers a method a path does not have with 405 and Allow, in the family shape', async () => {
    expect(await call('PUT', '/api/app/things')).toEqual({
      status: 405,
      allow: 'GET, HEAD, POST',
      body: { status: 'error', error: 'PUT is not allowed on /api/app/things; use GET, HEAD, POST' },
    });
    expect(await call('DELETE', '/api/2.0/report')).toEqual({
      status: 405,
      allow: 'GET, HEAD',
      body: { request: '/api/2.0/report', error: 'DELETE is not allowed on /api/2.0/report; use GET, HEAD' },
    });
    expect(await call('GET', '/track')).toEqual({
      status: 405,
      allow: 'POST',
      body: { error: 'GET is not allowed on /track; use POST', status: 0 },
    });
  });

  it('answers OPTIONS on a known path with 204 and Allow', async () => {
    expect(await call('OPTIONS', '/api/query/report')).toEqual({ status: 204, allow: 'GET, HEAD', body: undefined });
  });

  it("keeps a handler's own 404, worded in its family shape", async () => {
    expect(await call('GET', '/gone')).toEqual({
      status: 404,
      allow: null,
      body: { error: 'that batch is gone', status: 0 },
    });
  });

  it("leaves the routes that exist to their family's filter", async () => {
    expect(await call('GET', '/api/app/things')).toEqual({
      status: 200,
      allow: null,
      body: { status: 'ok', results: [] },
    });
    const response = await fetch(`${base}/api/app/things`, { method: 'POST' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toEqual({ status: 'error', error: 'slow down' });
  });
});
