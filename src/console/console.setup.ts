import type { ExceptionFilter } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyView from '@fastify/view';
import { Eta } from 'eta';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { consoleViewsDir } from './console-views';
import { ConsoleAwareExceptionFilter } from './http/console-exception.filter';
import { registerMultipartForms } from './http/multipart-form';
import { SignedInGuard } from './http/console-auth';
import type { EarlyAuthenticator } from '../shared/http/route-policies';
import type { ConsoleRequest } from './http/console-http';

/**
 * The Fastify plugin the server-rendered pages need: Eta views with escaping on
 * by default (`<%= %>` escapes; raw output needs an explicit `<%~ %>`). Form bodies are parsed
 * by Nest's own urlencoded parser (see configureApp), and the one file upload ("Send to many")
 * by the console's multipart parser; /v1 keeps refusing anything but JSON.
 */
export async function registerConsolePlugins(app: NestFastifyApplication): Promise<void> {
  registerMultipartForms(app.getHttpAdapter().getInstance());
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  await app.register(fastifyView as any, {
    engine: { eta: new Eta({ autoEscape: true, cache: true }) },
    templates: consoleViewsDir(),
    production: true,
  });
}

/** Wraps the API's error filter: console paths get HTML error pages, every other path is unchanged. */
export function consoleAwareFilter(app: NestFastifyApplication, apiFilter: ExceptionFilter): ExceptionFilter {
  let publicUrl: string | null = null;
  return new ConsoleAwareExceptionFilter(
    apiFilter,
    () => (publicUrl ??= app.get<AppConfig>(APP_CONFIG).publicUrl),
  );
}

/**
 * The console's large forms ("Send to many": the upload and its confirmation) need a signed-in
 * session before their body is read: the sign-in check of SignedInGuard, made from the cookie.
 */
export function consoleEarlyAuthenticator(app: NestFastifyApplication): EarlyAuthenticator {
  return {
    guard: SignedInGuard,
    authenticate: (request) => app.get(SignedInGuard).authenticate(request as ConsoleRequest),
  };
}
