import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { newId } from './shared/ids';
import { ApiExceptionFilter } from './shared/http/api-exception.filter';
import { requireJsonBodies } from './shared/http/request-guards.hooks';
import { apiValidationPipe } from './shared/http/validation.pipe';

/** 16 KiB: API.md's body limit. */
export const BODY_LIMIT_BYTES = 16 * 1024;

export function createFastifyAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => newId('req'),
    // A caller's X-Request-Id is not trusted: ours are unguessable and unique.
    requestIdHeader: false,
    trustProxy: process.env.TRUST_PROXY === 'true',
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
}

/**
 * The cross-cutting HTTP behaviour of API.md, applied the same way by main.ts and by every
 * e2e test: request ids, the one error shape (also for errors raised by Fastify before a
 * controller runs), JSON-only bodies, validation, and the OpenAPI document.
 */
export async function configureApp(app: NestFastifyApplication): Promise<NestFastifyApplication> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;

  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  requireJsonBodies(fastify, ['/v1/']);

  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(apiValidationPipe());

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('SMS Wallet API')
      .setDescription('Send SMS, read delivery reports and buy SMS credit. Authenticate with `Authorization: Bearer sms_test_…`.')
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'sms_test_… or sms_live_…' })
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', raw: ['json'] });
  return app;
}
