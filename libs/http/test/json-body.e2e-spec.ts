import { AppApiController, jsonBody } from '@analytics/http';
import {
  Body,
  CanActivate,
  INestApplication,
  Injectable,
  MiddlewareConsumer,
  Module,
  NestModule,
  Post,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString } from 'class-validator';
import type { AddressInfo } from 'node:net';

@Injectable()
class OpenAccess implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

class NoteDto {
  @IsString()
  text!: string;
}

@AppApiController('api/app/notes', { tag: 'notes', access: OpenAccess })
class NotesController {
  @Post()
  create(@Body() body: NoteDto) {
    return { status: 'ok', results: body };
  }
}

@Module({ controllers: [NotesController] })
class NotesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody('app')).forRoutes(NotesController);
  }
}

/** An object holding arrays nested so that the whole body is `depth` levels deep. */
const nested = (depth: number) => `{"text":"x","a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

/** Bodies of the app and query APIs as a hostile client sends them: answered 400 in the family's shape, never 500. */
describe('JSON bodies of the app API', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    app = await NestFactory.create(NotesModule, { logger: false, bodyParser: false });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const post = async (body: string) => {
    const response = await fetch(`${base}/api/app/notes`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it.each([100, 10_000, 100_000])('refuses a body nested %i levels deep with 400 in the app shape', async (depth) => {
    expect(await post(nested(depth))).toEqual({
      status: 400,
      body: { status: 'error', error: 'request body nests deeper than 64 levels' },
    });
  });

  it('takes a body nested up to the limit to validation as usual', async () => {
    expect(await post('{"text":"hello"}')).toEqual({ status: 201, body: { status: 'ok', results: { text: 'hello' } } });
    expect(await post(nested(64))).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('property a should not exist') },
    }); // validation, not depth
    expect(await post('{"text": 5}')).toMatchObject({ status: 400, body: { status: 'error' } });
  });
});
