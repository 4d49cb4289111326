import { Logger } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyGuard } from './accounts/http/api-key.guard';
import {
  consoleAwareFilter,
  consoleEarlyAuthenticator,
  registerConsolePlugins,
} from './console/console.setup';
import { APP_CONFIG, AppConfig } from './config/app-config';
import { envInt, type Env } from './config/env';
import { fastifyTrustProxy, trustProxy } from './config/trust-proxy';
import { logsInfo } from './config/log-levels';
import { newId } from './shared/ids';
import { ApiExceptionFilter, sendError } from './shared/http/api-exception.filter';
import { OPENAPI_TAGS } from './shared/http/openapi-tags';
import { BODY_SCHEMA_AJV_OPTIONS } from './shared/http/body-schema';
import { answerClientErrors } from './shared/http/client-errors';
import { strictRequestBodies } from './shared/http/openapi-strict-bodies';
import { describeControllerRoutes, registerRoutePolicies } from './shared/http/route-policies';
import {
  refuseWhileClosing,
  requireJsonBodies,
  routeBodyLimits,
  streamedBodies,
} from './shared/http/request-guards.hooks';
import { registerSecurityHeaders } from './shared/http/security-headers';
import { apiValidationPipe } from './shared/http/validation.pipe';
import { registerAccessLog } from './shared/logging/access-log.hooks';
import { registerRequestContext } from './shared/logging/request-context';
import { registerSendMetrics } from './shared/metrics/send-metrics.hooks';
import { SendMetrics } from './shared/metrics/send.metrics';

/** 16 KiB: API.md's body limit. */
export const BODY_LIMIT_BYTES = 16 * 1024;
/** The JSON API: JSON bodies only, and strict ones (a field a route does not know is refused). */
const API_PREFIXES = ['/v1/'];

const frameworkLogger = new Logger('http');

export function createFastifyAdapter(env: Env = process.env): FastifyAdapter {
  // A request (headers and body) must arrive in full within this, however slowly it is sent.
  const requestTimeoutMs = Math.max(1, envInt(env, 'REQUEST_TIMEOUT_MS', 30_000));
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: Math.min(requestTimeoutMs, 60_000),
      // Node checks its timeouts this often (30 s by default): a late request is dropped within a second.
      connectionsCheckingInterval: Math.min(1000, requestTimeoutMs),
    },
    clientErrorHandler: answerClientErrors(requestTimeoutMs),
    // Only the body schemas of route-policies.ts are validated, with these options.
    ajv: { customOptions: { ...BODY_SCHEMA_AJV_OPTIONS } },
    genReqId: () => newId('req'),
    // A caller's X-Request-Id is not trusted: ours are unguessable and unique.
    requestIdHeader: false,
    // Hops or trusted proxy addresses only, never the client's own left-most X-Forwarded-For.
    trustProxy: fastifyTrustProxy(trustProxy(env.TRUST_PROXY)),
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // refuseWhileClosing answers in API.md's shape instead of Fastify's fixed 503 body.
    return503OnClosing: false,
    // A URL the router cannot decode (bad percent-encoding, an over-long id) is refused before
    // any hook runs: answer it in API.md's shape with its request id too, not Fastify's own body.
    frameworkErrors: (error: Error, request: unknown, reply: unknown) => {
      sendError(reply as FastifyReply, request as FastifyRequest, error, frameworkLogger);
    },
  });
}

/**
 * The cross-cutting HTTP behaviour of API.md, applied the same way by main.ts and by every
 * e2e test: request ids (also on every log line a request causes), the one error shape (also
 * for errors raised by Fastify before a controller runs), JSON-only bodies, body shapes checked
 * before anything walks them and authentication before a large body (route-policies.ts),
 * validation, the access log and send metrics, and the OpenAPI document.
 */
export async function configureApp(app: NestFastifyApplication): Promise<NestFastifyApplication> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const config = app.get<AppConfig>(APP_CONFIG);

  // First, so that every later hook, guard and handler runs in the request's log context.
  registerRequestContext(fastify);
  if (logsInfo(config.logLevel)) registerAccessLog(fastify);
  registerSendMetrics(fastify, app.get(SendMetrics));
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  requireJsonBodies(fastify, API_PREFIXES);
  streamedBodies(fastify, ['text/csv']);
  routeBodyLimits(fastify);
  registerRoutePolicies(fastify, {
    apiPrefixes: API_PREFIXES,
    defaultBodyLimit: BODY_LIMIT_BYTES,
    authenticators: [
      {
        guard: ApiKeyGuard,
        authenticate: (request) =>
          app
            .get(ApiKeyGuard)
            .authenticate(request)
            .then(() => {}),
      },
      consoleEarlyAuthenticator(app),
    ],
  });
  describeControllerRoutes(app);
  refuseWhileClosing(fastify);
  // Helmet's headers and the one CSP (docs/security.md); HSTS only when PUBLIC_URL is https.
  await registerSecurityHeaders(app, config.publicUrl);

  // Views for the web console. HTML form bodies need no plugin: Nest's Fastify
  // adapter registers its own urlencoded parser at init (adding @fastify/formbody as well
  // fails with FST_ERR_CTP_ALREADY_PRESENT); /v1 stays JSON-only (above).
  await registerConsolePlugins(app);

  // JSON error bodies everywhere except the console's pages, which get HTML error pages.
  app.useGlobalFilters(consoleAwareFilter(app, new ApiExceptionFilter()));
  app.useGlobalPipes(apiValidationPipe());

  const document = strictRequestBodies(
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('SMS Wallet API')
        .setDescription(
          'Send SMS, read delivery reports and buy SMS credit. Authenticate with `Authorization: Bearer sms_test_…`.',
        )
        .setVersion('1')
        .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'sms_test_… or sms_live_…' })
        .build(),
    ),
  );
  document.tags = OPENAPI_TAGS.map((tag) => ({ ...tag })); // /docs groups in this order: messages first
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', raw: ['json'] });
  return app;
}
