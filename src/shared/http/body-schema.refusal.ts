import { DomainError, invalid } from '../domain-error';
import { didYouMean } from '../did-you-mean';
import type { BodyShape, JsonSchema, NodeRefusals } from './body-schema';
import { FREE_FORM_DEPTH } from './body-schema';

/** One error as ajv reports it (allErrors is off: the first one is the one that stopped it). */
export interface SchemaError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Record<string, unknown>;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

const unescapePointer = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

const joinParam = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);

/**
 * API.md's refusal for the first way a body failed its shape (body-schema.ts): the field named
 * in `param` as the ValidationPipe names it (`messages[2].sendAt`), in the DTO's own words where
 * its decorators gave some. `body` is the parsed body, read only along the failing path.
 */
export function shapeRefusal(error: SchemaError, shape: BodyShape, body: unknown): DomainError {
  const schemaTokens = error.schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean).map(unescapePointer);
  const nodeTokens = schemaTokens.slice(0, -1);
  const instanceTokens = error.instancePath.split('/').slice(1).map(unescapePointer);
  const node = nodeAt(shape.schema, nodeTokens);
  const refusals: NodeRefusals = (node && shape.refusals.get(node)) || {};
  const param = paramOf(nodeTokens, instanceTokens);

  switch (error.keyword) {
    case 'additionalProperties':
      return unknownParameter(param, String(error.params.additionalProperty), refusals.known ?? []);
    case 'maxProperties': {
      if (refusals.keys === 'strict') {
        const unknown = firstUnknownKey(valueAt(body, instanceTokens), refusals.known ?? []);
        if (unknown !== null) return unknownParameter(param, unknown, refusals.known ?? []);
      }
      if (refusals.keys === 'bounded')
        return invalid(
          'invalid_request',
          `The form has more fields than it takes (at most ${error.params.limit})`,
        );
      return invalid('parameter_invalid', `${param} holds more than ${error.params.limit} entries`, param);
    }
    case 'maxItems':
      return invalid(
        refusals.maxItems?.code ?? 'parameter_invalid',
        refusals.maxItems?.message ?? `${param} holds more than ${error.params.limit} items`,
        param,
      );
    case 'type': {
      if (!param) return invalid('invalid_request', 'The request body must be a JSON object');
      if (refusals.innermost)
        return invalid(
          'parameter_invalid',
          `${param} nests lists or objects too deeply (at most ${FREE_FORM_DEPTH} levels in a field)`,
          param,
        );
      const expected = ([] as unknown[])
        .concat(error.params.type)
        .filter((t): t is string => typeof t === 'string' && t !== 'null');
      return invalid(
        refusals.type?.code ?? 'parameter_invalid',
        refusals.type?.message ?? `${param} must be ${expected.map((t) => TYPE_WORDS[t] ?? t).join(' or ')}`,
        param,
      );
    }
    default:
      return invalid('parameter_invalid', `${param || 'The request body'} is invalid`, param || undefined);
  }
}

function unknownParameter(parent: string, key: string, known: readonly string[]): DomainError {
  const param = joinParam(parent, key);
  const suggestion = didYouMean(key, known);
  const hint = suggestion
    ? `did you mean ${suggestion}?`
    : known.length > 0
      ? `${parent || 'the body'} takes ${known.join(', ')}`
      : `${parent || 'the body'} takes no fields`;
  return invalid('parameter_unknown', `Unknown parameter ${param}: ${hint}`, param);
}

function nodeAt(schema: JsonSchema, tokens: readonly string[]): JsonSchema | undefined {
  let node: unknown = schema;
  for (const token of tokens) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node !== null && typeof node === 'object' ? (node as JsonSchema) : undefined;
}

/** The field as the ValidationPipe names it: each schema step that enters the body takes an instance token. */
function paramOf(schemaTokens: readonly string[], instanceTokens: readonly string[]): string {
  let param = '';
  let next = 0;
  for (let i = 0; i < schemaTokens.length && next < instanceTokens.length; i++) {
    const token = schemaTokens[i];
    if (token === 'properties') {
      param = joinParam(param, instanceTokens[next++]);
      i++; // the property's name
    } else if (token === 'items') param += `[${instanceTokens[next++]}]`;
    else if (token === 'additionalProperties') param = joinParam(param, instanceTokens[next++]);
  }
  return param;
}

function valueAt(body: unknown, tokens: readonly string[]): unknown {
  let value = body;
  for (const token of tokens) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return value;
}

/** The first key the object has that is not known: among its first known.length + 1 keys. */
function firstUnknownKey(value: unknown, known: readonly string[]): string | null {
  if (value === null || typeof value !== 'object') return null;
  for (const key in value) if (!known.includes(key)) return key;
  return null;
}
