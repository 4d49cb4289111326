import { Command } from '@nestjs/cqrs';

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
  ) {
    super();
  }
}
