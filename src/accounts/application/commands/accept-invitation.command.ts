import { Command } from '@nestjs/cqrs';

export interface JoinedAccount {
  readonly accountId: string;
  readonly memberId: string;
  readonly loginId: string;
  readonly email: string;
}

/**
 * The invitation link's form: with a new password when the e-mail has no login yet, or the login's
 * own password when it has one (one person, several accounts). `ip` is the client's address.
 */
export class AcceptInvitation extends Command<JoinedAccount> {
  constructor(
    readonly token: string,
    readonly password: string,
    readonly ip: string | null,
  ) {
    super();
  }
}
