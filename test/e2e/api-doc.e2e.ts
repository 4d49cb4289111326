import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPENAPI_TAGS } from '../../src/shared/http/openapi-tags';
import { startTestApp, TestApp } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** `### POST /v1/messages`: how docs/api.md names an endpoint (path parameters as `{id}`). */
const ENDPOINT_HEADING = /^###\s+([A-Z]+)\s+(\/\S*)\s*$/;
/** A line that looks like an endpoint heading at any level, to catch one written the wrong way. */
const ANY_ENDPOINT_HEADING = /^#+\s+(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\//;

/** `:id` and `{id}` are the same parameter: compare in the OpenAPI form. */
const normalise = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/:([A-Za-z_]\w*)/g, '{$1}')}`;

function documentedEndpoints(markdown: string): { endpoints: string[]; malformed: string[] } {
  const endpoints: string[] = [];
  const malformed: string[] = [];
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    if (inCode || !ANY_ENDPOINT_HEADING.test(line)) continue;
    const match = ENDPOINT_HEADING.exec(line);
    if (match) endpoints.push(normalise(match[1], match[2]));
    else malformed.push(line);
  }
  return { endpoints, malformed };
}

/**
 * docs/api.md is the reference a person who clones the repository reads; the OpenAPI document
 * is what the service serves at /openapi.json. Every operation of the one is a heading of the
 * other, and the other way round.
 */
describe('docs/api.md and the OpenAPI document', () => {
  let t: TestApp;
  let operations: string[];
  let tags: string[];
  let operationTags: string[];
  const { endpoints, malformed } = documentedEndpoints(readFileSync(join(ROOT, 'docs/api.md'), 'utf8'));

  beforeAll(async () => {
    t = await startTestApp();
    const document = (await t.request('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
      tags?: { name: string }[];
    };
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => METHODS.includes(method))
        .map((method) => normalise(method, path)),
    );
    tags = (document.tags ?? []).map((tag) => tag.name);
    operationTags = Object.values(document.paths).flatMap((item) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .flatMap(([, operation]) => operation.tags ?? ['(none)']),
    );
  });
  afterAll(() => t.close());

  it('names endpoints only as `### METHOD /path` headings, each once', () => {
    expect(malformed).toEqual([]);
    expect(endpoints.filter((e, i) => endpoints.indexOf(e) !== i)).toEqual([]);
    expect(endpoints.length).toBeGreaterThan(0);
  });

  it('documents every operation the OpenAPI document has', () => {
    const undocumented = operations.filter((o) => !endpoints.includes(o));
    expect({ 'operations missing from docs/api.md': undocumented }).toEqual({
      'operations missing from docs/api.md': [],
    });
  });

  it('lists its groups in the order of docs/api.md, messages first, and files every operation under one', () => {
    // Swagger UI (/docs) shows the groups in the document's `tags` order.
    expect(tags).toEqual(OPENAPI_TAGS.map((tag) => tag.name));
    expect(tags[0]).toBe('messages');
    expect([...new Set(operationTags)].filter((tag) => !tags.includes(tag))).toEqual([]);
    const sections = readFileSync(join(ROOT, 'docs/api.md'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('## '))
      .map((line) => line.toLowerCase());
    const at = (tag: string) => sections.findIndex((title) => title.includes(tag));
    expect(tags.map(at).every((index, i, all) => index >= 0 && (i === 0 || index > all[i - 1]))).toBe(true);
  });

  it('documents no endpoint the OpenAPI document lacks', () => {
    const unknown = endpoints.filter((e) => !operations.includes(e));
    expect({ 'endpoints in docs/api.md that /openapi.json does not have': unknown }).toEqual({
      'endpoints in docs/api.md that /openapi.json does not have': [],
    });
  });
});
