import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { GUARDS_METADATA, METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import type { INestApplicationContext } from '@nestjs/common';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Readable } from 'node:stream';
import { BodyBounds, boundsOf, FormFieldCounter, JsonBoundsScanner } from './body-bounds';
import type { DomainError } from '../domain-error';
import { BodyShape, bodyShapeOf, Constructor, hasValidatedProperties } from './body-schema';
import { SchemaError, shapeRefusal } from './body-schema.refusal';

/** What configureApp learns about each controller route before Nest registers it. */
interface RouteFacts {
  /** The class of the route's `@Body()`, when it takes the whole body. */
  readonly bodyDto: Constructor | null;
  /** Its guards, the controller's and its own. */
  readonly guards: readonly unknown[];
}

/** The route config key describeControllerRoutes notes a route's facts under. */
export const ROUTE_FACTS = 'routeFacts';

/**
 * Authenticates a request from its headers alone, before its body is read: the same check a
 * route's guard makes (and remembers on the request, so the guard does not repeat it). Throws
 * the refusal the guard would.
 */
export interface EarlyAuthenticator {
  /** The guard whose check this is: routes carrying it can be authenticated early. */
  readonly guard: Constructor;
  readonly authenticate: (request: FastifyRequest) => Promise<void>;
}

export interface RoutePolicyOptions {
  /** Path prefixes of the JSON API (strict bodies: a field the DTO does not name is refused). */
  readonly apiPrefixes: readonly string[];
  /** The server's body limit; a route allowed more must authenticate before its body. */
  readonly defaultBodyLimit: number;
  readonly authenticators: readonly EarlyAuthenticator[];
}

/**
 * Notes each controller route's body DTO and guards in its Fastify route config, where the
 * onRoute hook of registerRoutePolicies reads them. Runs before Nest registers the routes
 * (configureApp, before init), so every controller, present or added later, is covered.
 */
export function describeControllerRoutes(app: INestApplicationContext): void {
  const scanner = new MetadataScanner();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Constructor | null;
      if (typeof controller !== 'function') continue;
      const classGuards: unknown[] = Reflect.getMetadata(GUARDS_METADATA, controller) ?? [];
      for (const name of scanner.getAllMethodNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, object>)[name];
        if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const facts: RouteFacts = {
          bodyDto: bodyDtoOf(controller, name),
          guards: [...classGuards, ...(Reflect.getMetadata(GUARDS_METADATA, handler) ?? [])],
        };
        const config = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {};
        Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...config, [ROUTE_FACTS]: facts }, handler);
      }
    }
  }
}

function bodyDtoOf(controller: Constructor, method: string): Constructor | null {
  const args: Record<string, { index: number; data?: unknown }> =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {};
  const types: unknown[] = Reflect.getMetadata('design:paramtypes', controller.prototype, method) ?? [];
  for (const [key, arg] of Object.entries(args)) {
    if (Number(key.split(':')[0]) !== RouteParamtypes.BODY || arg.data !== undefined) continue;
    const dto = types[arg.index];
    return hasValidatedProperties(dto) ? dto : null;
  }
  return null;
}

/**
 * Per route, from what describeControllerRoutes noted:
 *
 * - A route whose `@Body()` is a class-validator DTO gets that DTO's JSON schema (body-schema.ts),
 *   checked by Fastify with ajv as soon as the body is parsed, before any guard, pipe or
 *   class-transformer walks it. The outcome is noted on the body (`attachValidation`, then a
 *   preHandler) and answered by the ValidationPipe after the guards: a request with a bad key
 *   is still a 401, over its rate limit a 429, whatever its body holds.
 * - A route allowed a body over the server's limit (`@RouteConfig({ bodyLimit })`) authenticates
 *   in its onRequest hook, before a byte of the body is read, with the early authenticator of
 *   one of its guards; a route with none cannot start. Refused, the connection is closed, so
 *   the body that was announced is never read either.
 */
export function registerRoutePolicies(fastify: FastifyInstance, options: RoutePolicyOptions): void {
  // One schema per DTO and flavour, however many routes take it (ajv compiles each once per route).
  const shapes = new Map<Constructor, Map<boolean, BodyShape>>();
  const shapeOf = (dto: Constructor, strict: boolean) => {
    const ofDto = shapes.get(dto) ?? new Map<boolean, BodyShape>();
    shapes.set(dto, ofDto);
    const shape = ofDto.get(strict) ?? bodyShapeOf(dto, { strict });
    ofDto.set(strict, shape);
    return shape;
  };

  fastify.addHook('onRoute', (route: RouteOptions) => {
    const facts = (route.config as Record<string, unknown> | undefined)?.[ROUTE_FACTS] as
      RouteFacts | undefined;
    if (!facts) return;
    const shape = facts.bodyDto
      ? shapeOf(
          facts.bodyDto,
          options.apiPrefixes.some((p) => route.url.startsWith(p)),
        )
      : null;
    if (shape) {
      route.schema = { ...route.schema, body: shape.schema };
      route.attachValidation = true;
      route.preHandler = [
        ...hooksOf(route.preHandler),
        noteShapeFailure(shape),
      ] as RouteOptions['preHandler'];
    }
    const limit = route.bodyLimit ?? options.defaultBodyLimit;
    if (limit <= options.defaultBodyLimit) return;
    const authenticator = options.authenticators.find((a) => facts.guards.includes(a.guard));
    if (!authenticator) {
      throw new Error(
        `${String(route.method)} ${route.url} takes bodies of up to ${limit} bytes but none of its guards ` +
          'can authenticate before the body is read: give it one (see EarlyAuthenticator)',
      );
    }
    route.onRequest = [
      ...hooksOf(route.onRequest),
      authenticateBeforeBody(authenticator),
    ] as RouteOptions['onRequest'];
    if (shape) {
      const bounds = boundsOf(shape.schema);
      const maxFields =
        typeof shape.schema.maxProperties === 'number' ? shape.schema.maxProperties : bounds.maxEntries;
      route.preParsing = [
        ...hooksOf(route.preParsing),
        boundWhileReading(bounds, maxFields),
      ] as RouteOptions['preParsing'];
    }
  });
}

const hooksOf = (hooks: unknown): unknown[] => (hooks === undefined ? [] : ([] as unknown[]).concat(hooks));

/**
 * On a route that takes large bodies, a JSON or form body is counted as it streams in (its
 * nesting, its entries per object or list, its form fields: body-bounds.ts), so JSON.parse and
 * the form parser never build more than the route's shape allows. Past the bounds the request
 * is refused at once, and the rest of its body is never read.
 */
function boundWhileReading(bounds: BodyBounds, maxFields: number) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: Readable): Promise<Readable> => {
    const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const counter =
      type === 'application/json' || type.endsWith('+json')
        ? new JsonBoundsScanner(bounds)
        : type === 'application/x-www-form-urlencoded'
          ? new FormFieldCounter(maxFields)
          : null;
    if (!counter) return payload;
    payload.on('error', (error) => counter.destroy(error));
    counter.on('error', () => {
      payload.unpipe(counter);
      payload.pause();
      reply.header('connection', 'close');
    });
    return payload.pipe(counter);
  };
}

function authenticateBeforeBody(authenticator: EarlyAuthenticator) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await authenticator.authenticate(request);
    } catch (error) {
      // Answered without reading the body: close the connection rather than drain it.
      reply.header('connection', 'close');
      throw error;
    }
  };
}

type CheckedRequest = FastifyRequest & { validationError?: { validation?: readonly SchemaError[] } };

/** Bodies that failed their route's shape, and why; read by the ValidationPipe (shapeRefusalOf). */
const failedShapes = new WeakMap<object, DomainError>();

/**
 * Notes ajv's verdict on the body itself, for the ValidationPipe to answer after the guards (so a
 * bad key is still a 401 and a key over its limit a 429, whatever the body holds) and before it
 * transforms anything. A body-less request is left to the pipe (it names the missing fields).
 */
function noteShapeFailure(shape: BodyShape) {
  return (request: CheckedRequest, _reply: FastifyReply, done: () => void) => {
    const failure = request.validationError?.validation?.[0];
    const body = request.body;
    if (failure && body !== null && typeof body === 'object')
      failedShapes.set(body, shapeRefusal(failure, shape, body));
    done();
  };
}

/** The refusal of a body that failed its route's shape (route-policies.ts), or undefined. */
export const shapeRefusalOf = (body: unknown): DomainError | undefined =>
  body !== null && typeof body === 'object' ? failedShapes.get(body) : undefined;
