/**
 * Reading docker-compose.yml and .github/workflows/ci.yml the way the servers and the adapters'
 * clients will: connection strings through the clients' own parsers, MongoDB's health script
 * run against a stand-in replica set. No server is needed (none can run here).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { parse } from 'yaml';
import { databaseName } from '../../src/shared/read-store/mongodb/mongodb-mapping';
// The 6.x client's own parser; the package root does not export it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parseConnectionString } = require('@eventstore/db-client/dist/Client/parseConnectionString') as {
  parseConnectionString(url: string): {
    dnsDiscover: boolean;
    hosts: { address: string; port: number }[];
    tls?: boolean;
  };
};

export const ROOT = join(__dirname, '..', '..');

export const readText = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const readYaml = (path: string): any => parse(readText(path));

/** Where the EventStoreDB client connects, and whether with TLS (the client's default is TLS). */
export function eventStoreTarget(url: string): { hosts: string[]; tls: boolean; discover: boolean } {
  const options = parseConnectionString(url);
  return {
    hosts: options.hosts.map((h) => `${h.address}:${h.port}`),
    tls: options.tls ?? true,
    discover: options.dnsDiscover,
  };
}

/** Where the MongoDB driver connects (parsing only: a client connects on its first use). */
export function mongoTarget(url: string): {
  hosts: string[];
  replicaSet: string | null;
  directConnection: boolean;
  database: string;
} {
  const { hosts, replicaSet, directConnection } = new MongoClient(url).options;
  return {
    hosts: hosts.map(String),
    replicaSet: replicaSet ?? null,
    directConnection,
    database: databaseName(url),
  };
}

/** `[major, minor]` of an image's tag, e.g. `eventstore/eventstore:24.10` → [24, 10]. */
export function imageVersion(image: string): [number, number] {
  const match = /:(\d+)(?:\.(\d+))?/.exec(image);
  if (!match) throw new Error(`${image} names no version`);
  return [Number(match[1]), Number(match[2] ?? 0)];
}

export const atLeast = ([major, minor]: [number, number], [wantMajor, wantMinor]: [number, number]) =>
  major > wantMajor || (major === wantMajor && minor >= wantMinor);

/** The value after `flag` in a list of arguments (`--replSet rs0` → rs0). */
export function flagValue(args: readonly string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

export interface ReplicaSetState {
  readonly initiated: boolean;
  readonly primary: boolean;
}

/**
 * Runs a mongosh health script against a stand-in replica set in `state`: what it asked
 * rs.initiate() for, and the code it quit with.
 */
export function runMongoHealth(
  script: string,
  state: ReplicaSetState,
): { initiated: unknown[]; exitCode: number | undefined } {
  const initiated: unknown[] = [];
  let exitCode: number | undefined;
  const rs = {
    status: () => {
      if (!state.initiated) throw new Error('MongoServerError: no replset config has been received');
      return { ok: 1 };
    },
    initiate: (config: unknown) => {
      initiated.push(config);
      return { ok: 1 };
    },
  };
  const db = { hello: () => ({ isWritablePrimary: state.primary }) };
  const quit = (code: number) => (exitCode ??= code);
  new Function('rs', 'db', 'quit', script)(rs, db, quit);
  return { initiated, exitCode };
}

/** Folded YAML and shell lines: the same script whatever the line breaks. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
