import { Command } from '@nestjs/cqrs';

export interface Rebuilt {
  /** The read models emptied and replayed (process managers keep their checkpoints). */
  readonly rebuilt: readonly string[];
  readonly ms: number;
}

/** Drop every read model and replay the whole log into it (`projections:rebuild`). */
export class RebuildProjections extends Command<Rebuilt> {}
