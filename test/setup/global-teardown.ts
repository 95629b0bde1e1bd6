import { runTeardowns } from './teardown-registry';

export default async function globalTeardown(): Promise<void> {
  await runTeardowns();
}
