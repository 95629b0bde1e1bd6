import { Agent, request } from 'node:http';
import { connect, Socket } from 'node:net';
import type { RequestPlan } from './hostile-requests';

export interface Answer {
  /** The HTTP status; 0 when the connection ended without an answer (reset, timeout, refused by the client library). */
  status: number;
  body: string;
  requestId?: string;
  /** Why there is no status: `timeout`, `reset`, `client:<code>` (Node's client refused the request), … */
  error?: string;
  ms: number;
  /** The request sent before this one on the same keep-alive connection, if any: a hostile one may leave the connection in a state that delays the next. */
  previousOnConnection?: string;
}

const KEEP = 4_096;

/**
 * Sends plans to one server on 127.0.0.1, through a keep-alive agent, or as raw bytes over a socket.
 * Answers are drained (so connections are reused) and their first bytes kept for the report.
 */
export class FuzzClient {
  private readonly agent: Agent;
  private readonly lastOnSocket = new WeakMap<Socket, string>();

  constructor(
    private readonly port: number,
    concurrency: number,
    private readonly timeoutMs: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  }

  send(plan: RequestPlan): Promise<Answer> {
    return plan.raw ? this.sendRaw(plan.raw) : this.sendHttp(plan);
  }

  private sendHttp(plan: RequestPlan): Promise<Answer> {
    const started = Date.now();
    return new Promise((resolve) => {
      let settled = false;
      let answer: Omit<Answer, 'ms'> | undefined;
      let timer: NodeJS.Timeout | undefined;
      let previous: string | undefined;
      const done = (a: Omit<Answer, 'ms'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...a, ms: Date.now() - started, previousOnConnection: previous });
      };
      const headers: Record<string, string> = { ...plan.headers };
      if (plan.body && !headers['transfer-encoding']) headers['content-length'] = String(plan.body.length);
      // A server that refuses a big body before reading it may leave the connection stalled (see connection-probe.ts): not reused.
      if (plan.body && plan.body.length > 1_000_000) headers.connection = 'close';
      let req: ReturnType<typeof request>;
      try {
        req = request(
          { host: '127.0.0.1', port: this.port, method: plan.method, path: plan.path, headers, agent: this.agent },
          (res) => {
            const chunks: Buffer[] = [];
            let kept = 0;
            answer = {
              status: res.statusCode ?? 0,
              body: '',
              requestId: res.headers['x-request-id'] as string | undefined,
            };
            res.on('data', (chunk: Buffer) => {
              if (kept < KEEP) chunks.push(chunk);
              kept += chunk.length;
            });
            const finish = () => done({ ...answer!, body: Buffer.concat(chunks).subarray(0, KEEP).toString('utf8') });
            res.on('end', finish);
            res.on('error', finish);
            res.on('close', finish);
          },
        );
      } catch (error) {
        done({ status: 0, body: '', error: `client:${(error as { code?: string }).code ?? (error as Error).message}` });
        return;
      }
      timer = setTimeout(() => req.destroy(new Error('timeout')), this.timeoutMs);
      req.on('socket', (socket: Socket) => {
        previous = this.lastOnSocket.get(socket);
        this.lastOnSocket.set(
          socket,
          `${plan.method} ${plan.path.slice(0, 200)} ${JSON.stringify(plan.headers).slice(0, 300)} body=${plan.body?.length ?? 0}`,
        );
      });
      // A server may answer (413, 401) and close before the body is written: the answer counts, the write error does not.
      req.on('error', (error: Error & { code?: string }) =>
        done(
          answer ?? {
            status: 0,
            body: '',
            error: error.message === 'timeout' ? 'timeout' : (error.code ?? error.message),
          },
        ),
      );
      if (plan.body) req.end(plan.body);
      else req.end();
    });
  }

  /** Writes the bytes, then reads until the server closes (or a short timeout: some requests announce more than they send). */
  private sendRaw(bytes: Buffer): Promise<Answer> {
    const started = Date.now();
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const socket = connect(this.port, '127.0.0.1');
      let finished = false;
      const finish = (error?: string) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        socket.destroy();
        const text = Buffer.concat(chunks).toString('latin1');
        const statuses = [...text.matchAll(/(?:^|\r\n)HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
        const worst = statuses.find((s) => s >= 500) ?? statuses[0] ?? 0;
        const requestId = /\r\nx-request-id: ([^\r]+)/i.exec(text)?.[1];
        resolve({
          status: worst,
          body: text.slice(0, KEEP),
          requestId,
          error: worst ? undefined : (error ?? 'closed without answer'),
          ms: Date.now() - started,
        });
      };
      const timer = setTimeout(() => finish('no answer within 3 s'), 3_000);
      socket.on('data', (chunk: Buffer) => {
        if (size < 64 * 1024) chunks.push(chunk);
        size += chunk.length;
      });
      socket.on('error', (error: Error & { code?: string }) => finish(error.code ?? error.message));
      socket.on('close', () => finish());
      socket.write(bytes);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
