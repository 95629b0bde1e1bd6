import { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { BatchWorker } from './batch-worker';

/** A Nest provider that runs its batch worker for the application's lifetime: started once the app is up, stopped (offsets committed) at shutdown. */
export abstract class BatchConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  protected abstract readonly worker: BatchWorker;

  onApplicationBootstrap(): Promise<void> {
    return this.worker.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }
}
