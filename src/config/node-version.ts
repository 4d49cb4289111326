/**
 * The Node.js versions the service runs on, as package.json's `engines` states them. The floor
 * is require() of ES modules: @fastify/static (which serves /docs, for @nestjs/swagger and
 * Nest's Fastify adapter) loads content-disposition 3, an ES module, with require(). Node does
 * that without a flag from 20.19 and from 22.12 (never on 21); on an older Node the server would
 * stop at start with ERR_REQUIRE_ESM, far from the cause.
 */
export const SUPPORTED_NODE = '^20.19.0 || >=22.12.0';

/** Why this Node version cannot run the service, or null when it can. */
export function nodeVersionProblem(version: string): string | null {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  const supported = (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23;
  if (supported) return null;
  return (
    `Node.js ${version} is too old for this service: it needs ${SUPPORTED_NODE} ` +
    `(require() of ES modules, which @fastify/static needs; package.json "engines"). ` +
    `Install a newer Node (e.g. the latest 20.x or 22.x) and run it again.`
  );
}
