import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { invalid } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { newId } from '../../../shared/ids';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import * as account from '../../domain/account.decider';
import { accountStream } from '../../domain/account.events';
import { normaliseAllowedIps } from '../../domain/allowed-ips';
import { generateApiKey } from '../../domain/api-key';
import { isKeyScope, KEY_SCOPES } from '../../domain/key-scopes';
import { MintApiKey, MintedKey } from './mint-api-key.command';

export const MAX_KEY_NAME_LENGTH = 64;

@CommandHandler(MintApiKey)
export class MintApiKeyHandler implements ICommandHandler<MintApiKey, MintedKey> {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly projections: ProjectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, environment, name, restrictions, actor }: MintApiKey): Promise<MintedKey> {
    const keyName = (name ?? '').trim() || `${environment === 'TEST' ? 'Test' : 'Live'} key`;
    if (keyName.length > MAX_KEY_NAME_LENGTH) {
      throw invalid('invalid_name', `name must be at most ${MAX_KEY_NAME_LENGTH} characters`, 'name');
    }
    const scope = restrictions.scope ?? 'full';
    if (!isKeyScope(scope))
      throw invalid('invalid_scope', `scope must be one of ${KEY_SCOPES.join(', ')}`, 'scope');
    const allowedIps = normaliseAllowedIps(restrictions.allowedIps);
    if (!allowedIps.ok) throw allowedIps.error;
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
        scope,
        allowedIps: allowedIps.value,
        actor,
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
      scope,
      allowed_ips: allowedIps.value,
      created_at: now.toISOString(),
    };
  }
}
