import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { validatePhoneNumber } from '../../../messaging/domain/phone-number';
import { CLOCK, Clock } from '../../../shared/clock';
import { invalid, notFound } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { unwrap } from '../../../shared/result';
import { optOutStream } from '../../domain/compliance.events';
import { optIn, optOut, optOutDecider } from '../../domain/opt-out.decider';
import { ApiOptOut } from '../../projections/compliance.projection';
import { ComplianceReader } from '../compliance-reader';
import { AddOptOut, OptOutChange, RemoveOptOut } from './change-opt-out.command';

const phoneNumberOf = (value: unknown, param: string): string => {
  const checked = validatePhoneNumber(typeof value === 'string' ? value.trim() : '');
  if (!checked.ok)
    throw invalid('invalid_phone_number', `${param} must be an E.164 number such as +233241234567`, param);
  return checked.value;
};

@CommandHandler(AddOptOut)
export class AddOptOutHandler implements ICommandHandler<AddOptOut, ApiOptOut> {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly reader: ComplianceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Idempotent: a number already on the list stays as it was (its first source and time). */
  async execute({ change }: AddOptOut): Promise<ApiOptOut> {
    const handled = await changeOptOut(
      this.aggregates,
      this.reader,
      change,
      'phone_number',
      this.clock.now(),
      'out',
    );
    return {
      object: 'opt_out',
      phone_number: handled.phoneNumber,
      source: handled.state.source ?? change.source,
      created_at: handled.state.since ?? this.clock.now().toISOString(),
    };
  }
}

@CommandHandler(RemoveOptOut)
export class RemoveOptOutHandler implements ICommandHandler<RemoveOptOut> {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly reader: ComplianceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({
    change,
  }: RemoveOptOut): Promise<{ object: 'opt_out'; phone_number: string; deleted: true }> {
    const handled = await changeOptOut(
      this.aggregates,
      this.reader,
      change,
      'phone_number',
      this.clock.now(),
      'in',
    );
    if (handled.removed === false) throw notFound('opt-out for this number', 'phone_number');
    return { object: 'opt_out', phone_number: handled.phoneNumber, deleted: true };
  }
}

async function changeOptOut(
  aggregates: AggregateStore,
  reader: ComplianceReader,
  change: OptOutChange,
  param: string,
  now: Date,
  direction: 'out' | 'in',
) {
  const phoneNumber = phoneNumberOf(change.phoneNumber, param);
  const cmd = { walletId: change.walletId, phoneNumber, source: change.source, now };
  const handled = unwrap(
    await aggregates.handle(optOutStream(change.walletId, phoneNumber), optOutDecider, (state) =>
      direction === 'out' ? optOut(state, cmd) : optIn(state, cmd),
    ),
  );
  await reader.waitFor(handled.position);
  return {
    phoneNumber,
    state: handled.state,
    removed: direction === 'in' ? handled.events.length > 0 : null,
  };
}
