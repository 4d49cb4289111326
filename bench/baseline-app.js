'use strict';
/**
 * The framework's ceiling on this machine: a minimal NestJS 11 app on Fastify with one GET
 * controller returning {ok:true}, no hooks, pipes, guards or stores. Started by bench/run.js
 * as its own process, exactly like the service (PORT from the environment).
 */
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');

class BaselineController {
  ok() {
    return { ok: true };
  }
}
Controller()(BaselineController);
Get('/')(BaselineController.prototype, 'ok', Object.getOwnPropertyDescriptor(BaselineController.prototype, 'ok'));

class BaselineModule {}
Module({ controllers: [BaselineController] })(BaselineModule);

async function main() {
  const app = await NestFactory.create(BaselineModule, new FastifyAdapter(), { logger: ['error'] });
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen(Number(process.env.PORT ?? 3100), '127.0.0.1');
  process.stdout.write('listening\n');
}

void main();
