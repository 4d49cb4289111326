import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { invalid } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { newId } from '../../../shared/ids';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import * as account from '../../domain/account.decider';
import { accountStream } from '../../domain/account.events';
import { generateApiKey } from '../../domain/api-key';
import { MintApiKey, MintedKey } from './mint-api-key.command';

export const MAX_KEY_NAME_LENGTH = 64;

@CommandHandler(MintApiKey)
export class MintApiKeyHandler implements ICommandHandler<MintApiKey, MintedKey> {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly projections: ProjectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, environment, name }: MintApiKey): Promise<MintedKey> {
    const keyName = (name ?? '').trim() || `${environment === 'TEST' ? 'Test' : 'Live'} key`;
    if (keyName.length > MAX_KEY_NAME_LENGTH) {
      throw invalid('invalid_name', `name must be at most ${MAX_KEY_NAME_LENGTH} characters`, 'name');
    }
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
}
