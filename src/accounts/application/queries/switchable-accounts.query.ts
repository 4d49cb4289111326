import { Query } from '@nestjs/cqrs';
import type { Role } from '../../domain/roles';

export interface SwitchableAccount {
  readonly accountId: string;
  /** The account's owner's e-mail: how people tell their accounts apart. */
  readonly owner: string;
  readonly role: Role;
}

/** The accounts an e-mail's login belongs to, in the order it joined them (the console's switcher). */
export class SwitchableAccounts extends Query<SwitchableAccount[]> {
  constructor(readonly email: string) {
    super();
  }
}
