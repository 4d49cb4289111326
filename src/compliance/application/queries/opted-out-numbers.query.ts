import { Query } from '@nestjs/cqrs';

/**
 * Which of these numbers are on the wallet's opt-out list now (read from the log, as the send
 * path's gate reads it): how the audience shows a contact's opt-out without keeping a copy.
 */
export class OptedOutNumbers extends Query<ReadonlySet<string>> {
  constructor(
    readonly walletId: string,
    readonly phoneNumbers: readonly string[],
  ) {
    super();
  }
}
