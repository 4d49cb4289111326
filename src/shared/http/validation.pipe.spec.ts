import { Type } from 'class-transformer';
import { IsArray, IsDefined, IsIn, IsString, MaxLength, ValidateNested } from 'class-validator';
import { DomainError } from '../domain-error';
import { ApiValidationPipe } from './validation.pipe';

class Item {
  @IsDefined() @IsString() to!: string;
}

class Body {
  @IsDefined({ message: 'type is required' })
  @IsString({ message: 'type must be a string' })
  @IsIn(['a', 'b'], { message: 'type must be a or b', context: { code: 'invalid_type' } })
  type!: string;

  @IsDefined() @IsString() @MaxLength(3) name!: string;
}

class WithItems {
  @IsArray() @ValidateNested({ each: true }) @Type(() => Item) items!: Item[];
}

const pipe = new ApiValidationPipe();
const asBody = (metatype: new () => object) => ({ type: 'body' as const, metatype, data: '' });

async function refusal(value: unknown, metatype: new () => object = Body): Promise<DomainError> {
  try {
    await pipe.transform(value, asBody(metatype));
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('the pipe accepted it');
}

describe('ApiValidationPipe', () => {
  it('names a missing field parameter_missing, before any other check of it', async () => {
    expect(await refusal({ name: 'ab' })).toMatchObject({
      kind: 'invalid_request',
      code: 'parameter_missing',
      param: 'type',
      message: 'type is required',
    });
  });

  it('reports the type check of a field before the checks that refine it', async () => {
    expect(await refusal({ type: 5, name: 'ab' })).toMatchObject({
      code: 'parameter_invalid',
      param: 'type',
    });
  });

  it("uses a decorator's own code when it names one", async () => {
    expect(await refusal({ type: 'c', name: 'ab' })).toMatchObject({ code: 'invalid_type', param: 'type' });
    expect(await refusal({ type: 'a', name: 'abcd' })).toMatchObject({
      code: 'parameter_invalid',
      param: 'name',
    });
  });

  it('names list items as field[index].field', async () => {
    expect(await refusal({ items: [{ to: 'x' }, {}] }, WithItems)).toMatchObject({
      code: 'parameter_missing',
      param: 'items[1].to',
    });
  });

  it('refuses a body that is not a JSON object, and validates a missing body as an empty one', async () => {
    for (const body of [[], 'text', 42, true]) {
      expect(await refusal(body)).toMatchObject({ code: 'invalid_request', param: undefined });
    }
    expect(await refusal(undefined)).toMatchObject({ code: 'parameter_missing', param: 'type' });
  });

  it('answers an instance of the DTO without the fields it does not declare', async () => {
    const value = await pipe.transform({ type: 'a', name: 'abc', extra: 1 }, asBody(Body));
    expect(value).toBeInstanceOf(Body);
    expect(value).toEqual({ type: 'a', name: 'abc' });
  });
});
