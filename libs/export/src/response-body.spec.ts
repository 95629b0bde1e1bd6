import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { responseBody } from './response-body';

const sink = () => {
  const chunks: Buffer[] = [];
  const response = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { response, received: () => Buffer.concat(chunks) };
};

describe('responseBody', () => {
  it('pipes the lines into the response, gzipped when asked', async () => {
    for (const gzip of [false, true]) {
      const { response, received } = sink();
      const { body, sent } = responseBody(response, gzip);
      body.end('{"event":"A"}\n');
      expect(await sent).toBeUndefined();
      expect((gzip ? gunzipSync(received()) : received()).toString()).toBe('{"event":"A"}\n');
    }
  });

  it('settles with the error, never rejects, when the client hangs up while the export still writes', async () => {
    const { response } = sink();
    const { body, sent } = responseBody(response, false);
    body.write('first line\n');
    response.destroy();
    // The export is still busy: nothing awaits `sent` yet, so a rejection here would be unhandled.
    await new Promise((next) => setImmediate(next));
    await expect(sent).resolves.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
    expect(body.destroyed).toBe(true);
  });
});
