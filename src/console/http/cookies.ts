import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The few cookies the console sets, read and written here rather than with @fastify/cookie:
 * its cookie parser is loaded with a dynamic import() of an ES module, which jest's CommonJS
 * runtime cannot do, and our cookies are simple (base62 values, fixed names).
 */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export interface CookieOptions {
  readonly path: string;
  readonly httpOnly: boolean;
  readonly sameSite: 'lax' | 'strict';
  readonly secure: boolean;
  readonly maxAge?: number;
}

export function setCookie(reply: FastifyReply, name: string, value: string, options: CookieOptions): void {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`];
  if (options.maxAge !== undefined) {
    parts.push(`Max-Age=${options.maxAge}`);
    parts.push(`Expires=${new Date(Date.now() + options.maxAge * 1000).toUTCString()}`);
  }
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  parts.push(`SameSite=${options.sameSite === 'strict' ? 'Strict' : 'Lax'}`);
  // Fastify appends each set-cookie header instead of replacing the previous one.
  reply.header('set-cookie', parts.join('; '));
}

export function clearCookie(reply: FastifyReply, name: string, options: CookieOptions): void {
  setCookie(reply, name, '', { ...options, maxAge: 0 });
}
