import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { loadConfig } from './config/app-config';
import { createPino, PinoLoggerService } from './shared/logging/pino-logger.service';
import { THREAD_BRIDGE, ThreadBridge } from './shared/threads/thread-bridge';

/**
 * The server's worker thread (started by the HTTP thread, THREAD_ROLE=worker): the same
 * application without HTTP, running the read models and the process managers (dispatching,
 * receipts, settlement, payments, webhooks, sweeps) on the second core. It stops when the HTTP
 * thread says so, after its submissions in flight and its last commits.
 */
async function run(): Promise<void> {
  const app = await NestFactory.createApplicationContext(AppModule, {
    logger: new PinoLoggerService(createPino(loadConfig()).child({ thread: 'worker' })),
  });
  await app.init();
  const bridge = app.get<ThreadBridge>(THREAD_BRIDGE);
  // A request, not a notice: one that came while this thread was still starting is kept until
  // the handler is there (a notice would be lost, and the server would wait out its grace).
  bridge.handle('shutdown', () => {
    void app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

void run();
