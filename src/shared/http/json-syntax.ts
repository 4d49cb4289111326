/** Where a JSON text stops being JSON, and what was expected there. */
export interface JsonSyntaxProblem {
  readonly line: number;
  readonly column: number;
  readonly problem: string;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const VALUE = 'expected a value (a "string", a number, true, false, null, an object or a list)';

/**
 * The first place `text` breaks the JSON grammar (RFC 8259), with its line and column (both from
 * 1), or null when it is JSON. JSON.parse says where only in some of its messages and words them
 * differently on each Node version; this says it the same way every time. One pass, no recursion
 * (a body may nest a million levels), and only run for a body the parser refused.
 */
export function jsonSyntaxProblem(text: string): JsonSyntaxProblem | null {
  const stack: ('object' | 'list')[] = [];
  let at = 0;
  let want: 'value' | 'value-or-end' | 'key' | 'key-or-end' | 'next' = 'value';
  const problem = (what: string): JsonSyntaxProblem => {
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    return { line, column: at - before.lastIndexOf('\n'), problem: what };
  };
  const string = (): string | null => {
    at++; // the opening quote
    for (;;) {
      if (at >= text.length) return 'a string is not closed';
      const c = text[at];
      if (c === '"') {
        at++;
        return null;
      }
      if (c < ' ') return 'a control character (such as a line break) inside a string: escape it';
      if (c === '\\') {
        at++;
        const escape = text[at];
        if (escape === 'u') {
          HEX4.lastIndex = at + 1;
          if (!HEX4.test(text)) return 'a \\u escape needs four hexadecimal digits';
          at += 4;
        } else if (escape === undefined || !ESCAPES.has(escape)) return 'an invalid escape in a string';
      }
      at++;
    }
  };

  for (;;) {
    while (at < text.length && WHITESPACE.has(text[at])) at++;
    if (at >= text.length)
      return want === 'next' && stack.length === 0 ? null : problem('the body ends too early');
    const c = text[at];
    const inside = stack[stack.length - 1];
    if (want === 'value-or-end' && c === ']') {
      stack.pop();
      at++;
      want = 'next';
    } else if (want === 'value' || want === 'value-or-end') {
      if (c === '{' || c === '[') {
        stack.push(c === '{' ? 'object' : 'list');
        at++;
        want = c === '{' ? 'key-or-end' : 'value-or-end';
        continue;
      }
      if (c === '"') {
        const broken = string();
        if (broken) return problem(broken);
      } else if (c === '-' || (c >= '0' && c <= '9')) {
        NUMBER.lastIndex = at;
        const number = NUMBER.exec(text);
        if (!number) return problem('an invalid number');
        at += number[0].length;
      } else {
        const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, at));
        if (!literal) return problem(VALUE);
        at += literal.length;
      }
      want = 'next';
    } else if (want === 'key' || want === 'key-or-end') {
      if (want === 'key-or-end' && c === '}') {
        stack.pop();
        at++;
        want = 'next';
        continue;
      }
      if (c !== '"') return problem('expected a property name in double quotes');
      const broken = string();
      if (broken) return problem(broken);
      while (at < text.length && WHITESPACE.has(text[at])) at++;
      if (text[at] !== ':')
        return problem(
          at >= text.length ? 'the body ends too early' : "expected ':' after the property name",
        );
      at++;
      want = 'value';
    } else if (inside === undefined) {
      return problem('unexpected text after the JSON value');
    } else if (c === ',') {
      at++;
      want = inside === 'object' ? 'key' : 'value';
    } else if ((inside === 'object' && c === '}') || (inside === 'list' && c === ']')) {
      stack.pop();
      at++;
    } else {
      return problem(inside === 'object' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
  }
}
