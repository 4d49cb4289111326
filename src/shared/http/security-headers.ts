import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * The content security policy of every HTML page this service serves (console, try-out, hosted
 * checkout): our own scripts, styles and images only, never framed. There is deliberately no
 * `form-action`: Chrome applies it to the redirect that follows a form post, and the hosted
 * checkout's Pay button ends in a 303 to the merchant's success_url on another origin.
 */
export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'object-src': ["'none'"],
};

/** The policy as a header value, with extra sources per directive (e.g. a style hash). */
export function contentSecurityPolicy(extra: Readonly<Record<string, readonly string[]>> = {}): string {
  const names = new Set([...Object.keys(CSP_DIRECTIVES), ...Object.keys(extra)]);
  return [...names]
    .map((name) => [name, ...(CSP_DIRECTIVES[name] ?? []), ...(extra[name] ?? [])].join(' '))
    .join('; ');
}

/**
 * The Swagger UI at /docs renders with inline styles (its own <style> block and React style
 * attributes); its scripts are files. Only those pages get `style-src 'unsafe-inline'`.
 */
export const DOCS_CSP = contentSecurityPolicy({ 'style-src': ["'unsafe-inline'"] });

const isDocs = (url: string) => url === '/docs' || url.startsWith('/docs/') || url.startsWith('/docs?');

/**
 * Security headers on every response (helmet): the CSP above, X-Frame-Options DENY, nosniff, no
 * referrer, and HSTS only when the service is reached over https (PUBLIC_URL). Helmet's middleware
 * is built once (its directives parsed once), not per request as @fastify/helmet builds it.
 */
export async function registerSecurityHeaders(app: NestFastifyApplication, publicUrl: string): Promise<void> {
  const https = publicUrl.startsWith('https://');
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES as Record<string, string[]> },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  fastify.addHook('onRequest', (request, reply, done) => {
    headers(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (isDocs(request.url)) reply.header('content-security-policy', DOCS_CSP);
    return payload;
  });
}
