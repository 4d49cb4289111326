import fc from 'fast-check';
import { jsonSyntaxProblem } from './json-syntax';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('jsonSyntaxProblem', () => {
  it('says where a body breaks and what was expected there', () => {
    expect(jsonSyntaxProblem('{\n  "to": "x",\n  "b": tru\n}')).toEqual({
      line: 3,
      column: 8,
      problem: 'expected a value (a "string", a number, true, false, null, an object or a list)',
    });
    expect(jsonSyntaxProblem('{"a":1,}')).toMatchObject({
      line: 1,
      column: 8,
      problem: 'expected a property name in double quotes',
    });
    expect(jsonSyntaxProblem('{"a" 1}')).toMatchObject({
      column: 6,
      problem: "expected ':' after the property name",
    });
    expect(jsonSyntaxProblem('[1,2')).toMatchObject({ column: 5, problem: 'the body ends too early' });
    expect(jsonSyntaxProblem('{"a":"x\ny"}')).toMatchObject({
      line: 1,
      column: 8,
      problem: expect.stringContaining('control character'),
    });
    expect(jsonSyntaxProblem('"\\u00"')).toMatchObject({
      problem: 'a \\u escape needs four hexadecimal digits',
    });
    expect(jsonSyntaxProblem('{}x')).toMatchObject({
      column: 3,
      problem: 'unexpected text after the JSON value',
    });
    expect(jsonSyntaxProblem('{"a":01}')).toMatchObject({ column: 7, problem: "expected ',' or '}'" });
  });

  it('finds nothing wrong in JSON, however deeply it nests', () => {
    expect(jsonSyntaxProblem(' {"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"], "b": {}} ')).toBeNull();
    expect(jsonSyntaxProblem(`${'['.repeat(500_000)}${']'.repeat(500_000)}`)).toBeNull();
  });

  it('agrees with JSON.parse on what is JSON', () => {
    const jsonish = fc.oneof(
      fc.json(),
      fc.json().map((text) => text.slice(0, Math.max(0, text.length - 1))),
      fc.tuple(fc.json(), fc.string({ maxLength: 3 })).map(([text, junk]) => `${text}${junk}`),
      fc.string({
        unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '1', 'e', '-', '.', ' ', '\\', 'n', 'u'),
      }),
    );
    fc.assert(
      fc.property(jsonish, (text) => {
        expect(jsonSyntaxProblem(text) === null).toBe(parses(text));
      }),
      { numRuns: 3000, seed: 20261126 },
    );
  });
});
