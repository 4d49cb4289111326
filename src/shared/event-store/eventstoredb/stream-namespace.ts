import { checkStoreNamespace } from '../../store-namespace';

/**
 * A store namespace on EventStoreDB (STORE_NAMESPACE): every stream of namespace `ns` is stored
 * as `ns:<stream>`, so several apps (the e2e suite's, one per test file) share one server and
 * each sees only its own streams. The empty namespace stores names as they are: production.
 */
export class StreamNamespace {
  static readonly NONE = new StreamNamespace('');

  /** What every stored stream name of this namespace starts with ('' for none). */
  readonly prefix: string;

  constructor(readonly name: string) {
    this.prefix = checkStoreNamespace(name) ? `${name}:` : '';
  }

  /** The stored name of a port stream (or of a stream-name prefix). */
  stored(streamId: string): string {
    return this.prefix + streamId;
  }

  /** The port name of a stored stream, or null when the stream lies outside this namespace. */
  local(storedId: string): string | null {
    if (!this.prefix) return storedId;
    return storedId.startsWith(this.prefix) ? storedId.slice(this.prefix.length) : null;
  }
}
