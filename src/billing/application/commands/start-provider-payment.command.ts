import { Command } from '@nestjs/cqrs';

/**
 * LIVE: hand the shopper to the payment provider. Answers the provider's page, or null when the
 * checkout can no longer be paid there (paid, failed or expired).
 */
export class StartProviderPayment extends Command<string | null> {
  constructor(readonly checkoutId: string) {
    super();
  }
}
