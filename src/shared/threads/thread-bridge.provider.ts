import { parentPort } from 'node:worker_threads';
import type { AppConfig } from '../../config/app-config';
import { ThreadBridge } from './thread-bridge';

/** The worker thread talks to the HTTP thread through its parent port from the start. */
export function createThreadBridge(config: AppConfig): ThreadBridge {
  const bridge = new ThreadBridge(config.threadRole === 'all');
  if (config.threadRole === 'worker') {
    if (!parentPort) throw new Error('THREAD_ROLE=worker outside a worker thread');
    bridge.attach(parentPort);
  }
  return bridge;
}
