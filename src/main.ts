import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { configureApp, createFastifyAdapter } from './app.setup';
import { APP_CONFIG, AppConfig, loadConfig } from './config/app-config';
import { nestLogLevels } from './config/log-levels';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, createFastifyAdapter(), {
    rawBody: true,
    logger: nestLogLevels(loadConfig().logLevel),
  });
  await configureApp(app);
  // Exit 0 once the graceful shutdown has finished (Nest's default re-raises the signal, so a
  // clean stop would look like a kill to a supervisor).
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  const config = app.get<AppConfig>(APP_CONFIG);
  await app.listen(config.port, config.host);
  console.log(`SMS wallet listening on ${config.publicUrl} (data in ${config.dataDir})`);
}

void bootstrap();
