import { boundsOf, FormFieldCounter, JsonBoundsScanner } from './body-bounds';
import { DomainError } from '../domain-error';
import type { Transform } from 'node:stream';

/** Streams `text` through the counter in chunks of `size` bytes: the refusal, or null. */
async function refusal(counter: Transform, text: string, size = 7): Promise<DomainError | null> {
  const bytes = Buffer.from(text);
  return new Promise((resolve) => {
    counter.on('error', (error) => resolve(error as DomainError));
    counter.on('finish', () => resolve(null));
    counter.resume();
    for (let at = 0; at < bytes.length; at += size) counter.write(bytes.subarray(at, at + size));
    counter.end();
  });
}

const bounds = { maxDepth: 3, maxEntries: 4 };

describe('boundsOf', () => {
  it('is one level deeper and twice as many entries as the schema takes', () => {
    const item = { type: 'object', maxProperties: 2, properties: { to: { type: ['string', 'null'] } } };
    const schema = {
      type: 'object',
      maxProperties: 5,
      properties: {
        messages: { type: ['array', 'null'], maxItems: 1000, items: item },
        type: { type: 'string' },
      },
      additionalProperties: false,
    };
    expect(boundsOf(schema)).toEqual({ maxDepth: 4, maxEntries: 2000 });
  });
});

describe('JsonBoundsScanner', () => {
  it('lets through what fits, with brackets, commas and escaped quotes inside strings ignored', async () => {
    const text = '{"a":[1,2,3,4],"b":{"c":"x,{[\\"]}"},"d":[{"e":1}]}';
    expect(await refusal(new JsonBoundsScanner(bounds), text)).toBeNull();
    expect(await refusal(new JsonBoundsScanner(bounds), text, 1)).toBeNull();
  });

  it('names the container that holds too many entries', async () => {
    const many = '{"messages":[{"to":1},{"a":1,"b":2,"c":3,"d":4,"e":5}]}';
    for (const size of [1, 3, 4096])
      expect(await refusal(new JsonBoundsScanner(bounds), many, size)).toMatchObject({
        param: 'messages[1]',
      });
    expect(
      await refusal(new JsonBoundsScanner(bounds), '{"messages":[{"to":1},{"a":1,"b":2,"c":3,"d":4,"e":5}]}'),
    ).toMatchObject({
      code: 'parameter_invalid',
      param: 'messages[1]',
      message: 'messages[1] holds more entries than this request takes (at most 4)',
    });
    expect(await refusal(new JsonBoundsScanner(bounds), '[1,2,3,4,5]')).toMatchObject({
      code: 'invalid_request',
      param: undefined,
    });
  });

  it('names where it nests too deep, however deep the rest would go', async () => {
    const deep = `{"messages":[{"to":${'['.repeat(100_000)}`;
    expect(await refusal(new JsonBoundsScanner(bounds), deep, 4096)).toMatchObject({
      param: 'messages[0].to',
      message: 'messages[0].to nests deeper than this request takes (at most 3 levels)',
    });
  });
});

describe('FormFieldCounter', () => {
  it('refuses a form with more fields than its route takes', async () => {
    expect(await refusal(new FormFieldCounter(3), 'a=1&b=2&c=3')).toBeNull();
    expect(await refusal(new FormFieldCounter(3), 'a=1&b=2&c=3&d=4')).toMatchObject({
      code: 'invalid_request',
    });
  });
});
