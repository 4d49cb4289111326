import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = { [keyword: string]: unknown };

/**
 * The OpenAPI document says what the API does with a field a route does not know: refuses it
 * (`400 parameter_unknown`, body-schema.ts). Every schema a `/v1` request body uses, nested ones
 * too, gets `additionalProperties: false`.
 */
export function strictRequestBodies(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const done = new Set<Schema>();
  const visit = (schema: unknown): void => {
    if (schema === null || typeof schema !== 'object' || done.has(schema as Schema)) return;
    const node = schema as Schema;
    done.add(node);
    const ref =
      typeof node.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(node.$ref)?.[1] : undefined;
    if (ref !== undefined) return visit(schemas[ref]);
    if (node.properties && typeof node.properties === 'object') {
      node.additionalProperties = false;
      for (const property of Object.values(node.properties as Record<string, unknown>)) visit(property);
    }
    visit(node.items);
    for (const list of [node.allOf, node.oneOf, node.anyOf]) if (Array.isArray(list)) list.forEach(visit);
  };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith('/v1/')) continue;
    for (const operation of Object.values(item as Record<string, { requestBody?: unknown }>)) {
      const content = (
        operation?.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined
      )?.content;
      for (const media of Object.values(content ?? {})) visit(media.schema);
    }
  }
  return document;
}
