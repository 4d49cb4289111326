import { Command } from '@nestjs/cqrs';

export interface GrantedCredits {
  readonly wallet: string;
  readonly granted: number;
  readonly reason: string;
  readonly source_id: string;
  readonly sms_left: number;
}

/**
 * An operator adjustment, recorded as CreditsAdded with its reason. With a `grantId` a retried
 * grant is safe (the wallet credits one source once); without one, each grant is a new one.
 */
export class GrantCredits extends Command<GrantedCredits> {
  constructor(
    readonly walletId: string,
    readonly sms: number,
    readonly reason: string,
    readonly grantId: string | null = null,
  ) {
    super();
  }
}
