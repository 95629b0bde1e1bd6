import { AppConfig, KafkaSettings } from '@analytics/config';
import { asError } from '@analytics/errors';
import { Catch, INestApplication, Injectable, Logger, RpcExceptionFilter } from '@nestjs/common';
import { BaseRpcContext, CustomTransportStrategy, MessageHandler, Server } from '@nestjs/microservices';
import { Kafka } from 'kafkajs';
import { lastValueFrom, Observable, throwError } from 'rxjs';
import { Attempter } from './attempt';
import { BatchPart } from './batch-part';
import { BatchOutcome, BatchWorker, BatchWorkerOptions } from './batch-worker';
import { TOPICS } from './topics';

/** The transport of the writers' handlers: `@EventPattern(TOPICS.events, KAFKA_BATCHES)`. */
export const KAFKA_BATCHES = Symbol('kafka-batches');

/** What a writer's handler gets besides the batch: the retry policy its writes run under (`attempt`). */
export class BatchContext extends BaseRpcContext<[BatchPart[], Attempter]> {
  get attempt(): Attempter {
    return this.args[1];
  }
}

/** How a topic is consumed: everything of a BatchWorker but the handler, which is the `@EventPattern` method. */
export type BatchSubscription = Omit<BatchWorkerOptions, 'handle'>;

/** The subscriptions of the writers mounted in this process, registered by their modules as they start. */
@Injectable()
export class BatchSubscriptions {
  private readonly byTopic = new Map<string, BatchSubscription>();

  /** One consumer per topic in a process: a second writer of a topic would take the first one's batches. */
  register(subscription: BatchSubscription): void {
    const topic = TOPICS[subscription.topic];
    if (this.byTopic.has(topic)) throw new Error(`a writer of ${topic} is already registered in this process`);
    this.byTopic.set(topic, subscription);
  }

  of(pattern: string): BatchSubscription | undefined {
    return this.byTopic.get(pattern);
  }

  get size(): number {
    return this.byTopic.size;
  }
}

/**
 * A Nest microservice transport over the writers' batch consumer: each `@EventPattern(<topic>)`
 * handler gets a consumer group of its own (its BatchSubscription) and is called with one gathered
 * batch (the parts of all partitions) at a time; the batch's offsets are committed after the
 * handler's promise resolved, and its outcome's dead letters were sent. A handler that throws (or
 * whose exception filter answers with an error) has its batch read again.
 */
export class KafkaBatchTransport extends Server implements CustomTransportStrategy {
  override readonly transportId = KAFKA_BATCHES;
  private readonly workers: BatchWorker[] = [];

  constructor(
    private readonly kafka: Kafka,
    private readonly settings: KafkaSettings,
    private readonly subscriptions: BatchSubscriptions,
  ) {
    super();
  }

  listen(callback: (error?: unknown) => void): void {
    try {
      for (const [pattern, handler] of this.getHandlers()) {
        const subscription = this.subscriptions.of(pattern);
        if (!subscription) throw new Error(`no subscription for the handler of ${pattern}: its module registers none`);
        this.workers.push(
          new BatchWorker(this.kafka, this.settings, {
            ...subscription,
            handle: (parts, attempt) => this.dispatch(handler, parts, attempt),
          }),
        );
      }
    } catch (error) {
      callback(error);
      return;
    }
    void Promise.all(this.workers.map((worker) => worker.start())).then(() => callback(), callback);
  }

  /** Drains: what each worker gathered is written and committed before it leaves its group. */
  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((worker) => worker.stop()));
  }

  private async dispatch(handler: MessageHandler, parts: BatchPart[], attempt: Attempter): Promise<BatchOutcome> {
    try {
      const outcome = (await lastValueFrom(
        this.transformToObservable(await handler(parts, new BatchContext([parts, attempt]))),
        { defaultValue: undefined },
      )) as BatchOutcome | undefined;
      return outcome ?? { deadLetters: [] };
    } catch (error) {
      throw asError(error);
    }
  }

  on(): void {
    throw new Error('the Kafka batch transport has no events to listen to');
  }

  unwrap<T>(): T {
    return this.workers as T;
  }
}

/**
 * Nest's default RPC filter would log a handler's error and hand on "Internal server error" in its
 * place; the worker wants the error itself, to log why a batch is read again and to classify it.
 */
@Catch()
class HandlerErrorsAsThrown implements RpcExceptionFilter<unknown> {
  catch(error: unknown): Observable<never> {
    return throwError(() => error);
  }
}

/**
 * Starts the writers' handlers of an app (those its modules mounted, with a broker): the batch
 * transport as a microservice of the app, sharing its modules. Before `listen`, after `init`.
 */
export async function startKafkaBatches(app: INestApplication): Promise<void> {
  // Without a broker, or in a service that opens no Kafka connection, nothing consumes. (Checked first:
  // in an app made with abortOnError, a lookup that fails ends the process.)
  const settings = app.get(AppConfig, { strict: false }).kafka;
  if (!settings) return;
  let subscriptions: BatchSubscriptions;
  try {
    subscriptions = app.get(BatchSubscriptions, { strict: false });
  } catch {
    return;
  }
  if (!subscriptions.size) return;
  // Not the app's HTTP pipes, guards and filters; a handler's error reaches the worker as thrown.
  app
    .connectMicroservice({
      strategy: new KafkaBatchTransport(app.get(Kafka, { strict: false }), settings, subscriptions),
    })
    .useGlobalFilters(new HandlerErrorsAsThrown());
  await app.startAllMicroservices();
  new Logger('KafkaBatchTransport').log(`consuming ${subscriptions.size} topic(s)`);
}
