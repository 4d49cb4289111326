// First: on a Node too old for a dependency, a clear sentence instead of ERR_REQUIRE_ESM.
import './config/require-supported-node';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { configureApp, createFastifyAdapter } from './app.setup';
import { APP_CONFIG, AppConfig, loadConfig } from './config/app-config';
import { envInt } from './config/env';
import { createPino, PinoLoggerService } from './shared/logging/pino-logger.service';

const logger = new Logger('main');

async function bootstrap(): Promise<void> {
  // This thread serves HTTP; a worker thread (src/worker.main.ts) runs the read models and the
  // process managers beside it, unless BACKGROUND_THREADS=off keeps everything on this one.
  if (process.env.BACKGROUND_THREADS !== 'off') process.env.THREAD_ROLE = 'api';
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, createFastifyAdapter(), {
    rawBody: true,
    // Every Nest logger in the process writes JSON lines through pino (docs/operations.md, Logs).
    logger: new PinoLoggerService(createPino(loadConfig())),
  });
  await configureApp(app);
  stopGracefullyOnSignals(app, envInt(process.env, 'SHUTDOWN_GRACE_MS', 10_000));
  const config = app.get<AppConfig>(APP_CONFIG);
  await app.listen(config.port, config.host);
  logger.log(`SMS wallet listening on ${config.publicUrl} (data in ${config.dataDir})`);
}

/**
 * SIGTERM (or SIGINT) stops the server in order, and exits 0 once it has: first HTTP stops
 * accepting (a request that still arrives on an open connection gets 503 with Retry-After) and
 * the requests in flight finish, so every send answered 200 is recorded; then the application
 * closes: the dispatcher lets its submissions in flight end and hands its partitions back, the
 * instance is recorded as stopped, the read models commit their checkpoints, the stores close.
 * Whatever is still not done after `graceMs` is abandoned as a crash would abandon it (exit 1):
 * the other instances, or the next start, take it over.
 */
function stopGracefullyOnSignals(app: NestFastifyApplication, graceMs: number): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return; // a second signal while draining changes nothing
    stopping = true;
    const startedAt = Date.now();
    logger.log(`${signal}: stopping (within SHUTDOWN_GRACE_MS, ${graceMs} ms)`);
    const deadline = setTimeout(() => {
      logger.error(`not stopped within SHUTDOWN_GRACE_MS (${graceMs} ms): exiting without the rest`);
      process.exit(1);
    }, graceMs);
    deadline.unref();
    (async () => {
      await app.getHttpAdapter().close();
      logger.log('HTTP drained: stopping the background work');
      await app.close();
    })().then(
      // process.exit, not a re-raised signal: a clean stop must not look like a kill to a supervisor.
      () => {
        logger.log(`stopped gracefully in ${Date.now() - startedAt} ms: exiting 0`);
        process.exit(0);
      },
      (error: unknown) => {
        logger.error('the graceful stop failed', (error as Error)?.stack ?? String(error));
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

bootstrap().catch((error: unknown) => {
  logger.fatal('the server did not start', (error as Error)?.stack ?? String(error));
  process.exit(1);
});
