import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { configureApp, createFastifyAdapter } from './app.setup';
import { APP_CONFIG, AppConfig, loadConfig } from './config/app-config';
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
  // Exit 0 once the graceful shutdown has finished (Nest's default re-raises the signal, so a
  // clean stop would look like a kill to a supervisor).
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  const config = app.get<AppConfig>(APP_CONFIG);
  await app.listen(config.port, config.host);
  logger.log(`SMS wallet listening on ${config.publicUrl} (data in ${config.dataDir})`);
}

bootstrap().catch((error: unknown) => {
  logger.fatal('the server did not start', (error as Error)?.stack ?? String(error));
  process.exit(1);
});
