import { Query } from '@nestjs/cqrs';
import type { BatchView } from '../batch-send.service';
import type { SendContext } from '../send-pipeline.service';

/** A batch as answered, its messages as they are now; another wallet's batch is a 404. */
export class BatchById extends Query<BatchView> {
  constructor(
    readonly id: string,
    readonly scope: Extract<SendContext, { mode: 'wallet' }>,
  ) {
    super();
  }
}
