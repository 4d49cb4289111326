import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '../../../shared/domain-error';
import { BatchSend, BatchView } from '../batch-send.service';
import { BatchById } from './batch-by-id.query';

@QueryHandler(BatchById)
export class BatchByIdHandler implements IQueryHandler<BatchById, BatchView> {
  constructor(private readonly batches: BatchSend) {}

  async execute({ id, scope }: BatchById): Promise<BatchView> {
    const batch = await this.batches.recorded(id, scope);
    if (!batch) throw notFound('batch', 'id');
    return batch;
  }
}
