import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { normaliseEmail } from '../../domain/email';
import { hashPassword, verifyPassword } from '../../domain/password';
import { loginIdOf } from '../../projections/accounts.projection';
import { AccountReader } from '../account-reader';
import { LoginByCredentials, SignedInLogin } from './login-by-credentials.query';

@QueryHandler(LoginByCredentials)
export class LoginByCredentialsHandler implements IQueryHandler<LoginByCredentials, SignedInLogin | null> {
  constructor(private readonly accounts: AccountReader) {}

  async execute({ email, password }: LoginByCredentials): Promise<SignedInLogin | null> {
    const found = await this.accounts.byEmail(email);
    if (!found) {
      await hashPassword(password); // same work either way, so timing does not reveal which emails exist
      return null;
    }
    if (!(await verifyPassword(password, found.passwordHash))) return null;
    const normal = normaliseEmail(email);
    return { loginId: loginIdOf(found), email: normal, memberships: await this.accounts.memberships(normal) };
  }
}
