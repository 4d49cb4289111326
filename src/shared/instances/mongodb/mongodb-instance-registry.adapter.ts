import { MongoClient } from 'mongodb';
import type { Collection } from 'mongodb';
import { databaseName, mapMongoError } from '../../read-store/mongodb/mongodb-mapping';
import type { InstanceRecord, InstanceRegistry } from '../instance-registry.port';

/** The collection, in the read models' database (STORE_NAMESPACE applies as it does there). */
export const INSTANCES = 'instances';

interface StoredInstance {
  _id: string;
  host: string | null;
  pid: number;
  startedAt: string;
  beatAt: string;
  stoppedAt: string | null;
}

/**
 * The instance registry in MongoDB (the read store's server and database), shared by every
 * instance of a deployment: one upsert per heartbeat. Its contract suite runs when MONGODB_URL
 * is set.
 */
export class MongoInstanceRegistry implements InstanceRegistry {
  private readonly client: MongoClient;
  private readonly instances: Collection<StoredInstance>;

  constructor(url: string, { namespace = '' }: { namespace?: string } = {}) {
    const options = /[?&]serverSelectionTimeoutMS=/i.test(url) ? {} : { serverSelectionTimeoutMS: 5000 };
    this.client = new MongoClient(url, options);
    this.instances = this.client.db(databaseName(url, namespace)).collection<StoredInstance>(INSTANCES);
  }

  async beat(record: Omit<InstanceRecord, 'stoppedAt'>): Promise<void> {
    const { id, beatAt, ...rest } = record;
    await this.guarded('beat', () =>
      this.instances.updateOne(
        { _id: id },
        { $set: { beatAt }, $setOnInsert: { ...rest, stoppedAt: null } },
        { upsert: true },
      ),
    );
  }

  async stopped(id: string, at: string): Promise<void> {
    await this.guarded('stopped', () => this.instances.updateOne({ _id: id }, { $set: { stoppedAt: at } }));
  }

  async list(): Promise<InstanceRecord[]> {
    const docs = await this.guarded('list', () => this.instances.find({}).toArray());
    return docs.map(({ _id, ...doc }) => ({ id: _id, ...doc }));
  }

  async forget(before: string): Promise<void> {
    await this.guarded('forget', () => this.instances.deleteMany({ beatAt: { $lt: before } }));
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async guarded<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      await this.client.connect();
      return await run();
    } catch (error) {
      throw mapMongoError(error, `instances ${what}`);
    }
  }
}
