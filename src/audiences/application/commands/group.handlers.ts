import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { invalid } from '../../../shared/domain-error';
import { isIdOf, newId } from '../../../shared/ids';
import { unwrap } from '../../../shared/result';
import { contactStream, groupStream } from '../../domain/audience.events';
import {
  changeContact,
  contactDecider,
  contactMissing,
  isLiveIn,
  leaveGroup,
} from '../../domain/contact.decider';
import {
  createGroup,
  deleteGroup,
  groupDecider,
  groupIsLiveIn,
  groupMissing,
  groupName,
} from '../../domain/group.decider';
import type { PlannedAppend } from '../../domain/import-chunk.plan';
import { AudienceReader } from '../audience-reader';
import { AudienceStore } from '../audience-store';
import { ApiGroup, toApiGroup } from '../audience-views';
import { AddGroupContacts, CreateGroup, DeleteGroup, RemoveGroupContact } from './group.commands';

/** API.md: `POST /v1/groups/:id/contacts` takes up to 1,000 contacts. */
export const MAX_GROUP_CONTACTS_PER_REQUEST = 1000;

async function groupView(
  reader: AudienceReader,
  walletId: string,
  groupId: string,
  position: bigint | null,
): Promise<ApiGroup> {
  await reader.waitFor(position);
  return toApiGroup(await reader.liveGroup(walletId, groupId, 'id'));
}

@CommandHandler(CreateGroup)
export class CreateGroupHandler implements ICommandHandler<CreateGroup, ApiGroup> {
  constructor(
    private readonly store: AudienceStore,
    private readonly reader: AudienceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ walletId, name }: CreateGroup): Promise<ApiGroup> {
    const checked = unwrap(groupName(name));
    const groupId = newId('grp');
    const handled = unwrap(
      await this.store.aggregates.handle(groupStream(groupId), groupDecider, (g) =>
        createGroup(g, { groupId, walletId, name: checked, now: this.clock.now() }),
      ),
    );
    return groupView(this.reader, walletId, groupId, handled.position);
  }
}

@CommandHandler(DeleteGroup)
export class DeleteGroupHandler implements ICommandHandler<DeleteGroup> {
  constructor(
    private readonly store: AudienceStore,
    private readonly reader: AudienceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ walletId, groupId }: DeleteGroup) {
    if (!isIdOf('grp', groupId)) throw groupMissing('id');
    const handled = await this.store.aggregates.handle(groupStream(groupId), groupDecider, (g) =>
      deleteGroup(g, { walletId, now: this.clock.now() }),
    );
    if (!handled.ok) throw groupMissing('id');
    await this.reader.waitFor(handled.value.position);
    return { object: 'group' as const, id: groupId, deleted: true as const };
  }
}

/**
 * Membership is each contact's own fact (its stream), so adding 1,000 contacts is 1,000 small
 * appends written together; the group's count is the read model's. Every id is checked first:
 * one unknown contact refuses the whole request (`404`, `param: contacts[i]`) and adds nobody.
 */
@CommandHandler(AddGroupContacts)
export class AddGroupContactsHandler implements ICommandHandler<AddGroupContacts, ApiGroup> {
  constructor(
    private readonly store: AudienceStore,
    private readonly reader: AudienceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ walletId, groupId, contactIds }: AddGroupContacts): Promise<ApiGroup> {
    if (!isIdOf('grp', groupId)) throw groupMissing('id');
    if (
      !Array.isArray(contactIds) ||
      contactIds.length === 0 ||
      contactIds.some((id) => typeof id !== 'string')
    )
      throw invalid('invalid_contacts', 'contacts must be a list of 1 to 1,000 contact ids', 'contacts');
    if (contactIds.length > MAX_GROUP_CONTACTS_PER_REQUEST)
      throw invalid(
        'invalid_contacts',
        `contacts takes at most ${MAX_GROUP_CONTACTS_PER_REQUEST.toLocaleString('en-US')} ids`,
        'contacts',
      );
    const ids = contactIds as string[];
    const position = await this.store.retrying(async () => {
      const group = await this.store.group(groupId);
      if (!groupIsLiveIn(group.state, walletId)) throw groupMissing('id');
      const now = this.clock.now();
      const loaded = await Promise.all(ids.map((id) => (isIdOf('con', id) ? this.store.contact(id) : null)));
      const appends: PlannedAppend[] = [];
      const planned = new Set<string>();
      for (const [index, contact] of loaded.entries()) {
        if (!contact || !isLiveIn(contact.state, walletId)) throw contactMissing(`contacts[${index}]`);
        if (planned.has(ids[index])) continue;
        planned.add(ids[index]);
        const events = unwrap(changeContact(contact.state, { walletId, joinGroups: [groupId], now }));
        appends.push({ streamId: contactStream(ids[index]), events, revision: contact.revision });
      }
      return this.store.append(appends);
    });
    return groupView(this.reader, walletId, groupId, position);
  }
}

@CommandHandler(RemoveGroupContact)
export class RemoveGroupContactHandler implements ICommandHandler<RemoveGroupContact, ApiGroup> {
  constructor(
    private readonly store: AudienceStore,
    private readonly reader: AudienceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ walletId, groupId, contactId }: RemoveGroupContact): Promise<ApiGroup> {
    if (!isIdOf('grp', groupId)) throw groupMissing('id');
    if (!isIdOf('con', contactId)) throw contactMissing('contact_id');
    const group = await this.store.group(groupId);
    if (!groupIsLiveIn(group.state, walletId)) throw groupMissing('id');
    const handled = await this.store.aggregates.handle(contactStream(contactId), contactDecider, (c) =>
      leaveGroup(c, { walletId, groupId, now: this.clock.now() }),
    );
    if (!handled.ok) throw contactMissing('contact_id');
    return groupView(this.reader, walletId, groupId, handled.value.position);
  }
}
