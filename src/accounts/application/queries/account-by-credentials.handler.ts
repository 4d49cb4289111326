import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { hashPassword, verifyPassword } from '../../domain/password';
import type { AccountView } from '../../projections/accounts.projection';
import { AccountReader } from '../account-reader';
import { AccountByCredentials } from './account-by-credentials.query';

@QueryHandler(AccountByCredentials)
export class AccountByCredentialsHandler implements IQueryHandler<AccountByCredentials, AccountView | null> {
  constructor(private readonly accounts: AccountReader) {}

  async execute({ email, password }: AccountByCredentials): Promise<AccountView | null> {
    const found = await this.accounts.byEmail(email);
    if (!found) {
      await hashPassword(password); // same work either way, so timing does not reveal which emails exist
      return null;
    }
    if (!(await verifyPassword(password, found.passwordHash))) return null;
    return this.accounts.byId(found.accountId);
  }
}
