import type { EventFilter, RecordedEvent } from '../event-store/event-store.port';
import type { DocumentIndex } from '../read-store/read-store.port';

/** A projection no longer run, merged into another (Projection.replaces). */
export interface RetiredProjection {
  readonly name: string;
  /** Its collections that nobody took over: emptied when it is retired. */
  readonly collections: readonly string[];
}

/** What a projection sees of the read store while it applies a batch of events. */
export interface ProjectionView {
  get<T>(collection: string, id: string): Promise<T | null>;
  /**
   * `fresh`: no stored document can have this id yet (the event creating it is being applied),
   * so a delete of it later in the same batch cancels the put and nothing is written at all.
   */
  put(
    collection: string,
    id: string,
    doc: unknown,
    index?: DocumentIndex,
    options?: { fresh?: boolean },
  ): void;
  delete(collection: string, id: string): void;
  /**
   * A side effect of this batch (an append, a wallet command), run together with the batch's
   * other ones once every event is applied and before the checkpoint is committed. Effects
   * that are independent of each other then share the store's group commit instead of waiting
   * for one commit each; a failure fails the batch, which is applied again from its checkpoint.
   */
  afterBatch(effect: () => Promise<unknown>): void;
}

/**
 * A durable consumer of the event log. Read models write documents through the view; process
 * managers act on events (and may keep their own state documents). Either way the checkpoint
 * is saved with the documents, so a batch is applied exactly once to the read store, and
 * `apply` must tolerate being called again for events whose side effects already happened.
 */
export interface Projection {
  readonly name: string;
  /** Collections the projection owns; a rebuild empties them. */
  readonly collections: readonly string[];
  readonly filter?: EventFilter;
  /**
   * Projections whose documents this one took over (merged into it). While one of them still
   * has a checkpoint in the read store, its documents were made up to another position than
   * this one's: this projection then starts over from the log's start, its collections emptied,
   * and the retired one's checkpoint and own collections are cleared with it.
   */
  readonly replaces?: readonly RetiredProjection[];
  /**
   * Process managers act on the world (carriers, payment providers); read models only write
   * documents. The operator CLI catches read models up but never runs process managers.
   */
  readonly kind?: 'read-model' | 'process-manager';
  apply(event: RecordedEvent, view: ProjectionView): Promise<void> | void;
  /**
   * Called each time the projection (re)starts from its stored checkpoint: whatever it keeps in
   * memory about documents it wrote may be stale then (another process running it on the same
   * read store may have committed batches this one never applied), so such caches are dropped.
   */
  onResume?(): void;
}

/**
 * Whether the event opens its stream, so that no document a projection keeps for the stream can
 * exist yet: each batch reaches the read store once (its writes and checkpoint commit together,
 * compare-and-set), so there is no earlier application of it to find. A read model skips the
 * read then; behind a campaign, reading 100,000 messages' documents that were never there was a
 * tenth of the messages read model's work.
 */
export const opensStream = (recorded: RecordedEvent): boolean => recorded.revision === 0n;

export const PROJECTIONS = Symbol('PROJECTIONS');
