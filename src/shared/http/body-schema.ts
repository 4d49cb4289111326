import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * The shape of a request body as a JSON schema, derived from the class-validator DTO the route
 * already takes, so Fastify (ajv, compiled once per route) checks it before anything walks the
 * body key by key: class-transformer's getKeys is quadratic in an object's keys, and it recurses
 * as deep as the body nests. The schema bounds both: every object has at most as many keys as
 * its DTO declares (API routes: none other, `additionalProperties: false`), every list at most
 * its `@ArrayMaxSize` (else DEFAULT_MAX_ITEMS), and a field the DTO does not type nests at most
 * FREE_FORM_DEPTH levels. What each field must hold (required, lengths, choices) stays the DTO's
 * to say, through the same ValidationPipe, in its own words.
 *
 * A failure is turned into API.md's error by body-shape.refusal.ts, which finds the DTO's own
 * message and code for the failed keyword in the `refusals` kept beside the schema.
 */
export type JsonSchema = { [keyword: string]: unknown };

/** A DTO (or any) class, as the metadata stores key it. */
export type Constructor = new (...args: never[]) => unknown;

/** The DTO's own words for a keyword that fails (a decorator's message and `context.code`). */
export interface Refusal {
  readonly message?: string;
  readonly code?: string;
}

/** What a failure of a schema node means, keyed by ajv keyword. */
export interface NodeRefusals {
  /** The properties an object of this node knows (for "did you mean"). */
  readonly known?: readonly string[];
  /** `strict`: unknown keys are refused; `bounded`: only counted (console forms). */
  readonly keys?: 'strict' | 'bounded';
  /** A free-form value's innermost level: anything but a scalar there is nested too deeply. */
  readonly innermost?: boolean;
  readonly type?: Refusal;
  readonly maxItems?: Refusal;
}

export interface BodyShape {
  readonly schema: JsonSchema;
  /** Keyed by the schema nodes above (object identity): what a failure of each means. */
  readonly refusals: WeakMap<JsonSchema, NodeRefusals>;
}

/**
 * Fastify's ajv options for these schemas: they check a body and never change it (no coercion,
 * no defaults, nothing removed), stop at the first failure, and may give a field several types.
 */
export const BODY_SCHEMA_AJV_OPTIONS = {
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  allErrors: false,
  allowUnionTypes: true,
} as const;

/** A list without its own `@ArrayMaxSize` holds at most this many items. */
export const DEFAULT_MAX_ITEMS = 1000;
/** Levels a field without a declared type may nest (`{"a": {"b": [1]}}` is 3). */
export const FREE_FORM_DEPTH = 3;
/** Keys per object, and items per list, inside a field without a declared type. */
const FREE_FORM_WIDTH = 100;
/** Nested DTOs deeper than this (a DTO that holds itself) are free-form from there on. */
const MAX_DTO_DEPTH = 8;
/**
 * Form bodies (the console's) carry fields their DTOs do not name (`_csrf`, a file's problem
 * note): their unknown keys are allowed, but only this many beyond the DTO's.
 */
const FORM_SPARE_KEYS = 16;

const SCALARS = ['string', 'number', 'boolean', 'null'];

/** class-validator's type checks, and the JSON types they take (null is the DTO's to refuse). */
const TYPE_CHECKS: Record<string, string> = {
  isString: 'string',
  isInt: 'integer',
  isNumber: 'number',
  isBoolean: 'boolean',
  isArray: 'array',
  isObject: 'object',
};

const PRIMITIVE_CONSTRUCTORS = new Set<unknown>([String, Number, Boolean, Date, Object, Array]);

interface TypeMetadata {
  readonly typeFunction: (options?: unknown) => unknown;
}
/** class-transformer's `@Type(() => Item)` metadata: the class of a nested object or list item. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const transformerStorage = require('class-transformer/cjs/storage').defaultMetadataStorage as {
  findTypeMetadata(target: Constructor, propertyName: string): TypeMetadata | undefined;
};

const SHAPED_AS = Symbol('shapedAs');

/**
 * The class whose fields give this property's shape in the body schema (its items', for a list),
 * for a property the ValidationPipe is not to convert or validate: a batch's items are checked
 * one by one by the domain, and turning 1,000 of them into class instances (`@Type`) would cost
 * more than everything else the pipe does to the batch.
 */
export const ShapedAs =
  (type: () => Constructor): PropertyDecorator =>
  (target, property) =>
    Reflect.defineMetadata(SHAPED_AS, type, target.constructor, property);

/** True when class-validator knows at least one property of the class. */
export function hasValidatedProperties(dto: unknown): dto is Constructor {
  return typeof dto === 'function' && validationMetadatas(dto as Constructor).length > 0;
}

/**
 * The body schema of a DTO. `strict`: an API route, where a key the DTO does not name is
 * refused (`parameter_unknown`); otherwise a form, where it is only counted.
 */
export function bodyShapeOf(dto: Constructor, options: { strict: boolean }): BodyShape {
  const refusals = new WeakMap<JsonSchema, NodeRefusals>();
  const schema = objectSchema(dto, 0, options.strict, refusals);
  return { schema, refusals };
}

function validationMetadatas(target: Constructor): ValidationMetadata[] {
  return getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
}

function objectSchema(
  dto: Constructor,
  depth: number,
  strict: boolean,
  refusals: WeakMap<JsonSchema, NodeRefusals>,
): JsonSchema {
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const metadata of validationMetadatas(dto)) {
    const list = byProperty.get(metadata.propertyName) ?? [];
    list.push(metadata);
    byProperty.set(metadata.propertyName, list);
  }
  const properties: Record<string, JsonSchema> = {};
  for (const [name, metadatas] of byProperty)
    properties[name] = propertySchema(dto, name, metadatas, depth, strict, refusals);
  const known = [...byProperty.keys()];
  const schema: JsonSchema = {
    type: 'object',
    properties,
    maxProperties: strict ? known.length : known.length + FORM_SPARE_KEYS,
    additionalProperties: strict ? false : freeForm(1, refusals),
  };
  refusals.set(schema, { known, keys: strict ? 'strict' : 'bounded', type: { code: 'parameter_invalid' } });
  return schema;
}

function propertySchema(
  dto: Constructor,
  name: string,
  metadatas: readonly ValidationMetadata[],
  depth: number,
  strict: boolean,
  refusals: WeakMap<JsonSchema, NodeRefusals>,
): JsonSchema {
  const typeChecks = metadatas.filter((m) => m.name !== undefined && TYPE_CHECKS[m.name] !== undefined);
  const own = typeChecks.filter((m) => !m.each);
  const each = typeChecks.filter((m) => m.each);
  const shapedAs = Reflect.getMetadata(SHAPED_AS, dto, name) as (() => Constructor) | undefined;
  const declared = shapedAs ? shapedAs() : transformerStorage.findTypeMetadata(dto, name)?.typeFunction();
  // `@Type(() => Number)` converts before validation: the wire value is not the declared type.
  if (PRIMITIVE_CONSTRUCTORS.has(declared)) return freeForm(FREE_FORM_DEPTH, refusals);
  const nested =
    typeof declared === 'function' && depth < MAX_DTO_DEPTH && hasValidatedProperties(declared)
      ? () => objectSchema(declared, depth + 1, strict, refusals)
      : null;

  if (own.some((m) => m.name === 'isArray')) {
    const maxSize = metadatas.find((m) => m.name === 'arrayMaxSize');
    const items = nested
      ? nested()
      : each.length > 0
        ? typed(each, refusals)
        : freeForm(FREE_FORM_DEPTH - 1, refusals);
    const schema: JsonSchema = {
      type: ['array', 'null'],
      maxItems: typeof maxSize?.constraints?.[0] === 'number' ? maxSize.constraints[0] : DEFAULT_MAX_ITEMS,
      items,
    };
    refusals.set(schema, {
      type: refusalOf(own.find((m) => m.name === 'isArray')),
      maxItems: refusalOf(maxSize),
    });
    return schema;
  }
  if (nested) {
    const schema = nested();
    schema.type = ['object', 'null'];
    return schema;
  }
  if (own.length > 0) return typed(own, refusals, true);
  return freeForm(FREE_FORM_DEPTH, refusals);
}

/** A field of the types its checks name (null too where the DTO decides about null). */
function typed(
  checks: readonly ValidationMetadata[],
  refusals: WeakMap<JsonSchema, NodeRefusals>,
  nullable = false,
): JsonSchema {
  const types = [...new Set(checks.map((m) => TYPE_CHECKS[m.name as string]))];
  const schema: JsonSchema = { type: nullable ? [...types, 'null'] : types };
  if (types.includes('object')) {
    schema.maxProperties = FREE_FORM_WIDTH;
    schema.additionalProperties = freeForm(FREE_FORM_DEPTH - 1, refusals);
  }
  refusals.set(schema, { type: refusalOf(checks[0]) });
  return schema;
}

/** Any JSON value nesting at most `levels` lists or objects, each of FREE_FORM_WIDTH entries. */
function freeForm(levels: number, refusals: WeakMap<JsonSchema, NodeRefusals>): JsonSchema {
  if (levels <= 0) {
    const schema: JsonSchema = { type: SCALARS };
    refusals.set(schema, { innermost: true });
    return schema;
  }
  const inner = freeForm(levels - 1, refusals);
  return {
    type: [...SCALARS, 'array', 'object'],
    maxItems: FREE_FORM_WIDTH,
    items: inner,
    maxProperties: FREE_FORM_WIDTH,
    additionalProperties: inner,
  };
}

function refusalOf(metadata: ValidationMetadata | undefined): Refusal | undefined {
  if (!metadata) return undefined;
  const code = (metadata.context as { code?: unknown } | undefined)?.code;
  return {
    ...(typeof metadata.message === 'string' ? { message: metadata.message } : {}),
    ...(typeof code === 'string' ? { code } : {}),
  };
}
