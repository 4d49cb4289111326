import { Command } from '@nestjs/cqrs';
import type { RebuildProgress } from './projection-runner';

export interface Rebuilt {
  /** The read models emptied and replayed (process managers keep their checkpoints). */
  readonly rebuilt: readonly string[];
  readonly ms: number;
}

/** Drop every read model and replay the whole log into it (`projections:rebuild`). */
export class RebuildProjections extends Command<Rebuilt> {
  constructor(
    /** Hears after every batch how far the replay has come. */
    readonly onProgress?: (progress: RebuildProgress) => void,
  ) {
    super();
  }
}
