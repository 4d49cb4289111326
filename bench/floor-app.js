'use strict';
/**
 * The floor of a send on the design card's stack: what NestJS on Fastify, the service's own
 * class-validator DTO and validation pipe, and one durable SQLite commit cost, with none of the
 * service's work (no authentication, wallet, idempotency, routing, security headers, request
 * ids, metrics, dispatch or read models). `POST /v1/messages` validates the body exactly as the
 * service does (dist/'s SendMessageDto through ApiValidationPipe), then appends two rows (the
 * reservation and the queued message) to an events table in a WAL file with the service's
 * pragmas, in one transaction per event-loop turn (a group commit, as the service's), and
 * answers 200 with a message object. Started by bench/run.js as its own process, with the
 * service's node flags; needs `npm run build` (the bench's npm script builds).
 */
require('reflect-metadata');
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');
const { Body, Controller, Get, HttpCode, Module, Post } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const Database = require('better-sqlite3');
const { SendMessageDto } = require('../dist/messaging/http/message.dto');
const { apiValidationPipe } = require('../dist/shared/http/validation.pipe');
const { ApiExceptionFilter } = require('../dist/shared/http/api-exception.filter');

const db = new Database(join(process.env.DATA_DIR ?? '.', 'floor-events.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY, stream_id TEXT NOT NULL, revision INTEGER NOT NULL,
  type TEXT NOT NULL, data TEXT NOT NULL, recorded_at TEXT NOT NULL, UNIQUE (stream_id, revision))`);
const insert = db.prepare('INSERT INTO events (stream_id, revision, type, data, recorded_at) VALUES (?, ?, ?, ?, ?)');
const commit = db.transaction((rows) => {
  for (const row of rows) insert.run(...row);
});

/** Rows waiting for this turn's commit, and who waits for it. */
let pending = [];
function append(rows) {
  return new Promise((resolve) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push({ rows, resolve });
  });
}
function flush() {
  const batch = pending;
  pending = [];
  commit(batch.flatMap((waiting) => waiting.rows));
  for (const waiting of batch) waiting.resolve();
}

let revision = 0;
class FloorController {
  async send(body) {
    const id = `msg_${randomUUID().replace(/-/g, '')}`;
    const now = new Date().toISOString();
    revision += 2;
    await append([
      ['wallet-floor', revision - 1, 'CreditsReserved', JSON.stringify({ message_id: id, credits: 1 }), now],
      [`message-${id}`, 0, 'MessageQueued', JSON.stringify({ id, ...body }), now],
    ]);
    return { object: 'message', id, status: 'QUEUED', ...body, segments: 1, credits: 1, created_at: now };
  }

  ready() {
    return { ok: true };
  }
}
Controller('v1')(FloorController);
Reflect.defineMetadata('design:paramtypes', [SendMessageDto], FloorController.prototype, 'send');
Body()(FloorController.prototype, 'send', 0);
const send = Object.getOwnPropertyDescriptor(FloorController.prototype, 'send');
HttpCode(200)(FloorController.prototype, 'send', send);
Post('messages')(FloorController.prototype, 'send', send);
Get('ready')(FloorController.prototype, 'ready', Object.getOwnPropertyDescriptor(FloorController.prototype, 'ready'));

class FloorModule {}
Module({ controllers: [FloorController] })(FloorModule);

async function main() {
  const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: ['error'] });
  app.useGlobalPipes(apiValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter()); // a bad body gets the service's 400, should one come
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen(Number(process.env.PORT ?? 3100), '127.0.0.1');
  process.stdout.write('listening\n');
}

void main();
