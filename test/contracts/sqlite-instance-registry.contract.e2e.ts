import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteInstanceRegistry } from '../../src/shared/instances/sqlite/sqlite-instance-registry.adapter';
import { describeInstanceRegistryContract } from './instance-registry.contract';

describeInstanceRegistryContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sms-wallet-instances-'));
  return {
    open: () => new SqliteInstanceRegistry(join(dir, 'read.db')),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
