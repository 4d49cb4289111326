import { Test, TestingModuleBuilder } from '@nestjs/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppModule } from '../../src/app.module';
import { configureApp, createFastifyAdapter } from '../../src/app.setup';
import { APP_CONFIG, AppConfig, loadConfig } from '../../src/config/app-config';
import type { CapturedLogs } from './captured-logs';
import { storeNamespaceEnv } from './engines';

export interface TestApp {
  readonly app: NestFastifyApplication;
  readonly baseUrl: string;
  readonly dataDir: string;
  readonly config: AppConfig;
  /** A JSON request to the running app; the body is parsed when it is JSON. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  readonly key?: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
  readonly text: string;
}

export interface TestAppOptions {
  /** Environment variables on top of the process's, e.g. TEST_DLR_DELAY_MS. */
  readonly env?: Record<string, string>;
  /** Reuse a data directory (to restart on the same store). */
  readonly dataDir?: string;
  /** Swap providers before the app compiles (overrideProvider…). */
  readonly override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /** Keep the data directory after close, for a restart. */
  readonly keepData?: boolean;
  /**
   * Listen on this port instead of a random one, with PUBLIC_URL (unless given in env) set to
   * the app's own base URL, so hosted checkout redirects come back to it. See freePort().
   */
  readonly port?: number;
  /**
   * Keeps the app's log lines here instead of printing its errors: for a suite that causes
   * errors on purpose and asserts them (captured-logs.ts).
   */
  readonly logs?: CapturedLogs;
}

/**
 * TEST keys' own lower rate limit and daily message quota are off unless a test sets them
 * (test/security/test-traffic-limits.e2e.ts): most suites send fast and many with TEST keys.
 * TEST keys still get the per-key limit (RATE_LIMIT_PER_KEY_*).
 */
export const TEST_KEY_LIMITS_OFF = {
  RATE_LIMIT_PER_TEST_KEY_RPS: '1000000000',
  RATE_LIMIT_PER_TEST_KEY_BURST: '1000000000',
  TEST_DAILY_MESSAGE_QUOTA: '0',
  SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR: '0',
} as const;

/**
 * The whole service on a fresh embedded store in a temp directory, listening on 127.0.0.1 (on
 * the engines when their URLs are set, in a namespace of its own: engines.ts).
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'sms-wallet-test-'));
  const port = options.port ?? 0;
  const ownUrl = options.port ? { PUBLIC_URL: `http://127.0.0.1:${options.port}` } : {};
  const env = {
    LOG_LEVEL: 'error',
    ...TEST_KEY_LIMITS_OFF,
    ...process.env,
    ...ownUrl,
    ...storeNamespaceEnv(dataDir),
    ...options.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    // In-process apps run on one thread: the background threads' code is compiled JavaScript
    // (dist/), which only a server process started from dist runs (test/support/server-process.ts).
    BACKGROUND_THREADS: 'off',
  };
  const config = loadConfig(env);
  let builder = Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(APP_CONFIG)
    .useValue(config);
  if (options.override) builder = options.override(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createFastifyAdapter(env), {
    rawBody: true,
    logger: options.logs ?? ['error'],
  });
  await configureApp(app);
  await app.listen(port, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;

  return {
    app,
    baseUrl,
    dataDir,
    config,
    request: (method, path, requestOptions = {}) => request(baseUrl, method, path, requestOptions),
    close: async () => {
      await app.close();
      if (!options.keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A TCP port that was free a moment ago on 127.0.0.1 (for startTestApp's `port`). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function request(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Asserts API.md's error shape and returns the error object. */
export function expectError(response: TestResponse, status: number, code?: string) {
  expect({ status: response.status, body: response.body }).toMatchObject({
    status,
    body: {
      error: {
        type: expect.any(String),
        code: code ?? expect.any(String),
        message: expect.any(String),
        request_id: expect.stringMatching(/^req_/),
      },
    },
  });
  expect(response.headers.get('x-request-id')).toBe(response.body.error.request_id);
  return response.body.error;
}

/** Asserts API.md's 429: `rate_limit_error` / `rate_limited` with a whole `Retry-After`; returns it. */
export function expectRateLimited(response: TestResponse): number {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  expect(response.body).toEqual({
    error: {
      type: 'rate_limit_error',
      code: 'rate_limited',
      message: expect.any(String),
      request_id: response.headers.get('x-request-id'),
    },
  });
  return retryAfter;
}
