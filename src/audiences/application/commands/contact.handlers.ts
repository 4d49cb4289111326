import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AddOptOut, RemoveOptOut } from '../../../compliance/application/commands/change-opt-out.command';
import { CLOCK, Clock } from '../../../shared/clock';
import { DomainError, invalid } from '../../../shared/domain-error';
import { isIdOf, newId } from '../../../shared/ids';
import { unwrap } from '../../../shared/result';
import { contactNumberStream, contactStream } from '../../domain/audience.events';
import { contactName, contactPhoneNumber, fieldChanges } from '../../domain/contact-input';
import { releaseNumber } from '../../domain/contact-number.decider';
import {
  changeContact,
  contactDecider,
  contactMissing,
  createContact,
  deleteContact,
  isLiveIn,
} from '../../domain/contact.decider';
import type { PlannedAppend } from '../../domain/import-chunk.plan';
import { AudienceReader } from '../audience-reader';
import { AudienceStore } from '../audience-store';
import { ApiContact, contactDoc } from '../audience-views';
import { ContactSource, CreateContact, DeleteContact, UpdateContact } from './contact.commands';

/** Groups a contact may be put in at once (API.md leaves it open; a contact in more is unusual). */
const MAX_GROUPS_PER_REQUEST = 100;

/** `groups` of a request: group ids, each a live group of the wallet (404 naming `groups[i]`). */
async function groupIds(
  store: AudienceStore,
  walletId: string,
  value: unknown,
): Promise<string[] | undefined> {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string'))
    throw invalid('invalid_groups', 'groups must be a list of group ids', 'groups');
  if (value.length > MAX_GROUPS_PER_REQUEST)
    throw invalid('invalid_groups', `groups names at most ${MAX_GROUPS_PER_REQUEST} groups`, 'groups');
  const ids = [...new Set(value as string[])];
  const missing = ids.findIndex((id) => !isIdOf('grp', id));
  if (missing >= 0)
    throw new DomainError('not_found', 'resource_missing', 'No such group', `groups[${missing}]`);
  await store.requireGroups(walletId, ids, 'groups');
  return ids;
}

/**
 * Creates a contact and claims its number in one go: the claim stream is appended at the revision
 * its decision read, so of two requests (or processes) creating the same number only one wins, and
 * the other answers `409 contact_exists`.
 */
@CommandHandler(CreateContact)
export class CreateContactHandler implements ICommandHandler<CreateContact, ApiContact> {
  constructor(
    private readonly store: AudienceStore,
    private readonly reader: AudienceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ walletId, input }: CreateContact): Promise<ApiContact> {
    const phoneNumber = unwrap(contactPhoneNumber(input.phone_number));
    const name = unwrap(contactName(input.name));
    const fields = unwrap(fieldChanges(input.fields, { removable: false })) as Record<string, string>;
    const groups = (await groupIds(this.store, walletId, input.groups)) ?? [];
    const contactId = newId('con');
    const { state, position } = await this.store.retrying(async () => {
      const now = this.clock.now();
      const claim = await this.store.claimFor(walletId, phoneNumber, contactId, now);
      const created = unwrap(
        createContact(contactDecider.initialState(), {
          contactId,
          walletId,
          phoneNumber,
          name,
          fields,
          groups,
          now,
        }),
      );
      const position = await this.store.append([
        claim,
        { streamId: contactStream(contactId), events: created, revision: -1n },
      ]);
      return { state: created.reduce(contactDecider.evolve, contactDecider.initialState()), position };
    });
    await this.reader.waitFor(position);
    const [view] = await this.reader.apiContacts(walletId, [contactDoc(state)]);
    return view;
  }
}

@CommandHandler(UpdateContact)
export class UpdateContactHandler implements ICommandHandler<UpdateContact, ApiContact> {
  constructor(
    private readonly store: AudienceStore,
    private readonly reader: AudienceReader,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ walletId, contactId, patch, source }: UpdateContact): Promise<ApiContact> {
    if (!isIdOf('con', contactId)) throw contactMissing('id');
    const phoneNumber =
      patch.phone_number === undefined ? undefined : unwrap(contactPhoneNumber(patch.phone_number));
    const name = patch.name === undefined ? undefined : unwrap(contactName(patch.name));
    const fields = unwrap(fieldChanges(patch.fields, { removable: true }));
    const groups = await groupIds(this.store, walletId, patch.groups);
    if (patch.opted_out !== undefined && typeof patch.opted_out !== 'boolean')
      throw invalid('parameter_invalid', 'opted_out must be true or false', 'opted_out');
    const { state, position } = await this.store.retrying(async () => {
      const now = this.clock.now();
      const loaded = await this.store.contact(contactId);
      if (!isLiveIn(loaded.state, walletId)) throw contactMissing('id');
      const before = loaded.state;
      const events = unwrap(
        changeContact(before, {
          walletId,
          ...(phoneNumber === undefined ? {} : { phoneNumber }),
          ...(name === undefined ? {} : { name }),
          fields,
          ...(groups === undefined ? {} : { groups }),
          now,
        }),
      );
      const appends: PlannedAppend[] = [
        { streamId: contactStream(contactId), events, revision: loaded.revision },
      ];
      if (phoneNumber !== undefined && phoneNumber !== before.phoneNumber) {
        appends.unshift(await this.store.claimFor(walletId, phoneNumber, contactId, now));
        const old = await this.store.claim(walletId, before.phoneNumber as string);
        const released = releaseNumber(old.state, {
          walletId,
          phoneNumber: before.phoneNumber as string,
          contactId,
          now,
        });
        appends.push({
          streamId: contactNumberStream(walletId, before.phoneNumber as string),
          events: released,
          revision: old.revision,
        });
      }
      const position = await this.store.append(appends);
      return { state: events.reduce(contactDecider.evolve, before), position };
    });
    await this.changeOptOut(walletId, state.phoneNumber as string, patch.opted_out, source);
    await this.reader.waitFor(position);
    const [view] = await this.reader.apiContacts(walletId, [contactDoc(state)]);
    return view;
  }

  /** The opt-out list is compliance's: changed through its commands, and only when it differs. */
  private async changeOptOut(
    walletId: string,
    phoneNumber: string,
    wanted: unknown,
    source: ContactSource,
  ): Promise<void> {
    if (typeof wanted !== 'boolean') return;
    const optedOut = (await this.reader.optedOut(walletId, [phoneNumber])).has(phoneNumber);
    if (optedOut === wanted) return;
    const change = { walletId, phoneNumber, source };
    await this.commands.execute(wanted ? new AddOptOut(change) : new RemoveOptOut(change));
  }
}

@CommandHandler(DeleteContact)
export class DeleteContactHandler implements ICommandHandler<DeleteContact> {
  constructor(
    private readonly store: AudienceStore,
    private readonly reader: AudienceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The contact first, then its number's claim: a crash in between leaves a claim nobody holds, which a new contact may take. */
  async execute({ walletId, contactId }: DeleteContact) {
    if (!isIdOf('con', contactId)) throw contactMissing('id');
    const position = await this.store.retrying(async () => {
      const now = this.clock.now();
      const loaded = await this.store.contact(contactId);
      const events = unwrap(deleteContact(loaded.state, { walletId, now }));
      const phoneNumber = loaded.state.phoneNumber as string;
      const claim = await this.store.claim(walletId, phoneNumber);
      return this.store.append([
        { streamId: contactStream(contactId), events, revision: loaded.revision },
        {
          streamId: contactNumberStream(walletId, phoneNumber),
          events: releaseNumber(claim.state, { walletId, phoneNumber, contactId, now }),
          revision: claim.revision,
        },
      ]);
    });
    await this.reader.waitFor(position);
    return { object: 'contact' as const, id: contactId, deleted: true as const };
  }
}
