import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';
import Fastify from 'fastify';
import { BODY_SCHEMA_AJV_OPTIONS, bodyShapeOf, BodyShape } from './body-schema';
import { SchemaError, shapeRefusal } from './body-schema.refusal';

class Item {
  @IsOptional() @IsString({ message: 'to must be a string' }) to?: string;
  @Allow() note?: unknown;
}

class Body {
  @IsDefined()
  @IsString({ message: 'name must be a string', context: { code: 'invalid_name' } })
  name!: string;
  @IsOptional() @IsInt() count?: number;
  @IsOptional() @IsObject() fields?: Record<string, string>;
  @IsArray()
  @ArrayMaxSize(3, { message: 'items must hold 1 to 3 items', context: { code: 'invalid_size' } })
  @ValidateNested({ each: true })
  @Type(() => Item)
  items!: Item[];
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
}

/** The shape's refusal of `body`, as Fastify's ajv (with the server's options) finds it. */
async function refusalOf(shape: BodyShape, body: unknown) {
  const app = Fastify({ ajv: { customOptions: { ...BODY_SCHEMA_AJV_OPTIONS } } });
  let error: SchemaError | undefined;
  app.post('/', { schema: { body: shape.schema }, attachValidation: true }, async (request) => {
    error = (request as unknown as { validationError?: { validation: SchemaError[] } }).validationError
      ?.validation[0];
    return {};
  });
  await app.inject({ method: 'POST', url: '/', payload: body as object });
  await app.close();
  return error ? shapeRefusal(error, shape, body) : null;
}

describe('body shapes derived from class-validator DTOs', () => {
  const strict = bodyShapeOf(Body, { strict: true });
  const form = bodyShapeOf(Body, { strict: false });

  it('lets a body of the DTO’s shape through, whatever its values (those are the DTO’s to check)', async () => {
    const body = {
      name: 'x',
      count: 3,
      fields: { a: 'b' },
      items: [{ to: '+1', note: { any: [1, 2] } }, {}],
      tags: ['a'],
    };
    expect(await refusalOf(strict, body)).toBeNull();
    expect(await refusalOf(strict, { name: null, items: null })).toBeNull();
  });

  it('refuses a key the DTO does not name, with the one it most likely meant', async () => {
    expect(await refusalOf(strict, { name: 'x', items: [], nmae: 'y' })).toMatchObject({
      code: 'parameter_unknown',
      param: 'nmae',
      message: 'Unknown parameter nmae: did you mean name?',
    });
    expect(await refusalOf(strict, { items: [{ to: '+1' }, { to: '+1', too: '+2' }] })).toMatchObject({
      code: 'parameter_unknown',
      param: 'items[1].too',
    });
  });

  it('names the first unknown key of an object with far too many, without looking at the rest', async () => {
    const many: Record<string, number> = {};
    for (let i = 0; i < 10_000; i++) many[`k${i}`] = i;
    expect(await refusalOf(strict, many)).toMatchObject({ code: 'parameter_unknown', param: 'k0' });
  });

  it('answers a type check in the DTO’s own words and code', async () => {
    expect(await refusalOf(strict, { name: 5, items: [] })).toMatchObject({
      code: 'invalid_name',
      message: 'name must be a string',
      param: 'name',
    });
    expect(await refusalOf(strict, { items: [{ to: 5 }] })).toMatchObject({
      message: 'to must be a string',
      param: 'items[0].to',
    });
    expect(await refusalOf(strict, { count: 1.5, items: [] })).toMatchObject({
      code: 'parameter_invalid',
      param: 'count',
    });
    expect(await refusalOf(strict, { tags: ['a', 2], items: [] })).toMatchObject({
      message: 'tags[1] must be a string',
    });
    expect(await refusalOf(strict, [])).toMatchObject({
      code: 'invalid_request',
      message: 'The request body must be a JSON object',
    });
  });

  it('bounds lists by @ArrayMaxSize (in its words) and free-form fields by depth and width', async () => {
    expect(await refusalOf(strict, { items: [{}, {}, {}, {}] })).toMatchObject({
      code: 'invalid_size',
      param: 'items',
    });
    const deep = { items: [{ note: { a: { b: { c: { d: 1 } } } } }] }; // 3 levels allowed
    expect(await refusalOf(strict, deep)).toMatchObject({
      code: 'parameter_invalid',
      param: 'items[0].note.a.b.c',
    });
    const wide = {
      fields: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, 'x'])),
      items: [],
    };
    expect(await refusalOf(strict, wide)).toMatchObject({ message: 'fields holds more than 100 entries' });
  });

  it('lets a form carry a few fields its DTO does not name, and no more', async () => {
    expect(await refusalOf(form, { name: 'x', items: [], _csrf: 't', _once: 'o' })).toBeNull();
    const crowded = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, 'x']));
    expect(await refusalOf(form, crowded)).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('more fields'),
    });
  });
});
