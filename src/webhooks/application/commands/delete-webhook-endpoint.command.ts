import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../shared/actor';

export interface DeletedWebhookEndpoint {
  readonly id: string;
  readonly object: 'webhook_endpoint';
  readonly deleted: true;
}

/** Remove one of the wallet's endpoints; another wallet's is answered exactly like an unknown one. */
export class DeleteWebhookEndpoint extends Command<DeletedWebhookEndpoint> {
  constructor(
    readonly walletId: string,
    readonly id: unknown,
    readonly actor?: Actor,
  ) {
    super();
  }
}
