import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError, invalid } from '../../shared/domain-error';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { ConcurrencyError, EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { newId } from '../../shared/ids';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { WalletService } from '../../wallet/application/wallet.service';
import * as account from '../domain/account.decider';
import { accountStream, emailStream, Environment, Registration } from '../domain/account.events';
import { generateApiKey } from '../domain/api-key';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from '../domain/password';
import {
  ACCOUNT_EMAILS,
  ACCOUNT_KEYS,
  ACCOUNTS,
  AccountView,
  ApiKeyListing,
  EmailView,
} from '../projections/accounts.projection';

const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@]{2,}$/;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
const emailHash = (email: string) => createHash('sha256').update(normaliseEmail(email)).digest('hex');

export interface MintedKey {
  readonly id: string;
  readonly object: 'api_key';
  readonly key: string;
  readonly name: string;
  readonly environment: Environment;
  readonly suffix: string;
  readonly created_at: string;
}

@Injectable()
export class AccountsService {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly aggregates: AggregateStore,
    private readonly wallets: WalletService,
    private readonly projections: ProjectionsService,
  ) {}

  /** Signs up: claims the email (unique even when two sign-ups race), then provisions the account. */
  async register(email: string, password: string): Promise<AccountView> {
    if (typeof email !== 'string' || !EMAIL_SHAPE.test(email.trim())) {
      throw invalid('invalid_email', 'email must be an email address', 'email');
    }
    if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH || password.length > 200) {
      throw invalid(
        'invalid_password',
        `password must be ${MIN_PASSWORD_LENGTH} to 200 characters`,
        'password',
      );
    }
    const registration: Registration = {
      accountId: newId('acct'),
      email: normaliseEmail(email),
      passwordHash: await hashPassword(password),
      testWalletId: newId('wal'),
      liveWalletId: newId('wal'),
    };
    try {
      await this.events.append(
        emailStream(emailHash(email)),
        [{ type: 'EmailClaimed', data: { ...registration, claimedAt: this.clock.now().toISOString() } }],
        'no_stream',
      );
    } catch (error) {
      if (error instanceof ConcurrencyError) {
        throw new DomainError(
          'conflict',
          'email_taken',
          'An account with this email already exists',
          'email',
        );
      }
      throw error;
    }
    await this.provision(registration);
    await this.projections.catchUp();
    return (await this.reads.get<AccountView>(ACCOUNTS, registration.accountId))!;
  }

  /** Creates the account stream and opens both wallets; every step is idempotent, so recovery may repeat it. */
  async provision(registration: Registration): Promise<void> {
    const result = await this.aggregates.handle(
      accountStream(registration.accountId),
      account.accountDecider,
      (a) => account.register(a, { ...registration, now: this.clock.now() }),
    );
    if (!result.ok) throw result.error;
    for (const [walletId, environment] of [
      [registration.testWalletId, 'TEST'],
      [registration.liveWalletId, 'LIVE'],
    ] as const) {
      const opened = await this.wallets.open(walletId, registration.accountId, environment);
      if (!opened.ok) throw opened.error;
    }
  }

  /** The account when the password matches; null otherwise (without saying which part was wrong). */
  async authenticate(email: string, password: string): Promise<AccountView | null> {
    const found = await this.reads.get<EmailView>(ACCOUNT_EMAILS, normaliseEmail(email));
    if (!found) {
      await hashPassword(password); // same work either way, so timing does not reveal which emails exist
      return null;
    }
    if (!(await verifyPassword(password, found.passwordHash))) return null;
    return this.reads.get<AccountView>(ACCOUNTS, found.accountId);
  }

  findByEmail(email: string): Promise<EmailView | null> {
    return this.reads.get<EmailView>(ACCOUNT_EMAILS, normaliseEmail(email));
  }

  get(accountId: string): Promise<AccountView | null> {
    return this.reads.get<AccountView>(ACCOUNTS, accountId);
  }

  /** Mints a key; its full value is in this answer and nowhere else, ever. */
  async mintKey(accountId: string, environment: Environment, name: string): Promise<MintedKey> {
    const keyName = (name ?? '').trim() || `${environment === 'TEST' ? 'Test' : 'Live'} key`;
    if (keyName.length > 64) throw invalid('invalid_name', 'name must be at most 64 characters', 'name');
    const generated = generateApiKey(environment);
    const keyId = newId('key');
    const now = this.clock.now();
    const result = await this.aggregates.handle(accountStream(accountId), account.accountDecider, (a) =>
      account.mintKey(a, {
        keyId,
        name: keyName,
        environment,
        keyHash: generated.hash,
        suffix: generated.suffix,
        now,
      }),
    );
    if (!result.ok) throw result.error;
    // The key must work on the very next request, so the key index is current before we answer.
    await this.projections.waitFor(result.value.position);
    return {
      id: keyId,
      object: 'api_key',
      key: generated.key,
      name: keyName,
      environment,
      suffix: generated.suffix,
      created_at: now.toISOString(),
    };
  }

  async revokeKey(accountId: string, keyId: string): Promise<void> {
    const result = await this.aggregates.handle(accountStream(accountId), account.accountDecider, (a) =>
      account.revokeKey(a, { keyId, now: this.clock.now() }),
    );
    if (!result.ok) throw result.error;
    await this.projections.waitFor(result.value.position);
  }

  /** Revokes by key id alone (the operator CLI does not know the account). */
  async revokeKeyById(keyId: string): Promise<{ accountId: string }> {
    const listing = await this.reads.get<ApiKeyListing>(ACCOUNT_KEYS, keyId);
    if (!listing) throw new DomainError('not_found', 'resource_missing', 'No such API key', 'id');
    await this.revokeKey(listing.accountId, keyId);
    return { accountId: listing.accountId };
  }

  listKeys(accountId: string, limit = 100): Promise<ApiKeyListing[]> {
    return this.reads.list<ApiKeyListing>(ACCOUNT_KEYS, { partition: accountId, order: 'desc', limit });
  }
}
