import { Query } from '@nestjs/cqrs';

/** The e-mail address of an account, from its own stream (so as current as the log), or null. */
export class AccountEmail extends Query<string | null> {
  constructor(readonly accountId: string) {
    super();
  }
}
