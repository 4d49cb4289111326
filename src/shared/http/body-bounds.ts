import { Transform, TransformCallback } from 'node:stream';
import { DomainError, invalid } from '../domain-error';
import type { JsonSchema } from './body-schema';

/** The most any body of a schema can hold: levels of nesting, and entries in one object or list. */
export interface BodyBounds {
  readonly maxDepth: number;
  readonly maxEntries: number;
}

/**
 * Bounds a little beyond what a schema takes (body-schema.ts gives every object a maxProperties
 * and every list a maxItems, and nests a bounded number of levels): one level deeper, twice the
 * entries. A body beyond them fails the schema anyway, so refusing it while it streams in refuses
 * nothing the schema would take; one within them is refused by the schema itself, in the DTO's
 * words (1,001 batch items are `invalid_batch_size`), as any body a real client sends would be.
 */
export function boundsOf(schema: JsonSchema): BodyBounds {
  let maxEntries = 0;
  const depthOf = (node: unknown, seen: Set<unknown>): number => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return 0;
    const s = node as JsonSchema;
    const types = ([] as unknown[]).concat(s.type);
    if (!types.includes('object') && !types.includes('array')) return 0;
    for (const limit of [s.maxProperties, s.maxItems])
      if (typeof limit === 'number') maxEntries = Math.max(maxEntries, limit);
    const inner = new Set(seen).add(node);
    const children = [
      ...Object.values((s.properties ?? {}) as Record<string, unknown>),
      s.additionalProperties,
      s.items,
    ];
    return 1 + Math.max(0, ...children.map((child) => depthOf(child, inner)));
  };
  const maxDepth = depthOf(schema, new Set());
  return { maxDepth: maxDepth + 1, maxEntries: Math.max(2 * maxEntries, maxEntries + 16) };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const COMMA = 0x2c;
const AMPERSAND = 0x26;
/** Enough of a key to name it in a refusal. */
const KEY_BYTES = 64;

/**
 * Passes a JSON body through unchanged while counting, byte by byte and without parsing it, how
 * deep it nests and how many entries each object or list holds; past `bounds`, the stream fails
 * with API.md's 400 naming where (`messages[1]`). JSON.parse then only ever builds bodies the
 * route could take: a 2 MiB object of 240,000 keys, or a million nested lists, costs a few
 * milliseconds of scanning instead of hundreds of parsing (and the rest is never read).
 */
export class JsonBoundsScanner extends Transform {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /**
   * Per open level: commas seen (entries - 1), whether it is an object, and where its current key
   * sits: the chunk and the bytes in it, decoded only to name a refusal (or, for a key split
   * across chunks, rare, its text).
   */
  private readonly commas: number[] = [];
  private readonly isObject: boolean[] = [];
  private readonly keyChunks: (Buffer | null)[] = [];
  private readonly keyStarts: number[] = [];
  private readonly keyEnds: number[] = [];
  private readonly keyTexts: string[] = [];
  private expectingKey = false;
  /** The key being read: where it starts in this chunk, and what of it earlier chunks held. */
  private readingKey = false;
  private keyStart = 0;
  private keyBefore: Buffer | null = null;

  constructor(private readonly bounds: BodyBounds) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const problem = this.scan(chunk);
    if (problem) done(problem);
    else done(null, chunk);
  }

  /** One pass over the chunk, in locals (a 2 MiB body is 2 million turns of this loop). */
  private scan(chunk: Buffer): DomainError | null {
    const { maxDepth, maxEntries } = this.bounds;
    let { depth, inString, escaped, expectingKey } = this;
    let problem: DomainError | null = null;
    for (let i = 0; i < chunk.length && problem === null; i++) {
      const byte = chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) {
          inString = false;
          if (this.readingKey) this.keyRead(chunk, i, depth - 1);
        }
      } else if (byte === QUOTE) {
        inString = true;
        if (expectingKey) {
          this.readingKey = true;
          this.keyStart = i + 1;
          this.keyBefore = null;
        }
        expectingKey = false;
      } else if (byte === OPEN_OBJECT || byte === OPEN_LIST) {
        if (depth >= maxDepth) {
          this.depth = depth;
          problem = this.refuse(`nests deeper than this request takes (at most ${maxDepth} levels)`);
        } else {
          this.commas[depth] = 0;
          this.isObject[depth] = byte === OPEN_OBJECT;
          this.keyChunks[depth] = null;
          this.keyTexts[depth] = '';
          depth++;
          expectingKey = byte === OPEN_OBJECT;
        }
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_LIST) {
        if (depth > 0) depth--;
        expectingKey = false;
      } else if (byte === COMMA && depth > 0) {
        const level = depth - 1;
        if (++this.commas[level] >= maxEntries) {
          this.depth = level; // name the container, not its next entry
          problem = this.refuse(`holds more entries than this request takes (at most ${maxEntries})`);
        }
        expectingKey = this.isObject[level];
      }
    }
    if (problem !== null) return problem;
    Object.assign(this, { depth, inString, escaped, expectingKey });
    if (this.readingKey) {
      // The key goes on in the next chunk: keep what this one held of it (a few bytes at most).
      const part = chunk.subarray(this.keyStart, Math.min(chunk.length, this.keyStart + KEY_BYTES));
      this.keyBefore = this.keyBefore
        ? Buffer.concat([this.keyBefore, part]).subarray(0, KEY_BYTES)
        : Buffer.from(part);
      this.keyStart = 0;
    }
    return null;
  }

  /** The key of the object open at `level` ends before `end` in `chunk`. */
  private keyRead(chunk: Buffer, end: number, level: number): void {
    this.readingKey = false;
    const bytes = chunk.subarray(this.keyStart, Math.min(end, this.keyStart + KEY_BYTES));
    if (this.keyBefore) {
      this.keyChunks[level] = null;
      this.keyTexts[level] = Buffer.concat([this.keyBefore, bytes]).subarray(0, KEY_BYTES).toString('utf8');
      this.keyBefore = null;
    } else {
      this.keyChunks[level] = chunk;
      this.keyStarts[level] = this.keyStart;
      this.keyEnds[level] = this.keyStart + bytes.length;
    }
  }

  /** The refusal, naming the open level where it happened the way the ValidationPipe would. */
  private refuse(what: string): DomainError {
    let param = '';
    for (let level = 0; level < this.depth; level++) {
      const key =
        this.keyChunks[level]?.toString('utf8', this.keyStarts[level], this.keyEnds[level]) ??
        this.keyTexts[level] ??
        '';
      const entry = this.isObject[level] ? key : String(this.commas[level]);
      param = this.isObject[level] ? (param ? `${param}.${entry}` : entry) : `${param}[${entry}]`;
    }
    return param
      ? invalid('parameter_invalid', `${param} ${what}`, param)
      : invalid('invalid_request', `The request body ${what}`);
  }
}

/** The same for a form body (`a=1&b=2`): at most `maxFields` fields, counted by their `&`. */
export class FormFieldCounter extends Transform {
  private separators = 0;

  constructor(private readonly maxFields: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    for (let i = chunk.indexOf(AMPERSAND); i >= 0; i = chunk.indexOf(AMPERSAND, i + 1)) {
      if (++this.separators >= this.maxFields)
        return done(
          invalid('invalid_request', `The form has more fields than it takes (at most ${this.maxFields})`),
        );
    }
    done(null, chunk);
  }
}
