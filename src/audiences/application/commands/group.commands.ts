import { Command } from '@nestjs/cqrs';
import type { ApiGroup } from '../audience-views';

export class CreateGroup extends Command<ApiGroup> {
  constructor(
    readonly walletId: string,
    readonly name: unknown,
  ) {
    super();
  }
}

/** Deletes the group; its contacts stay (they are no longer shown in it). */
export class DeleteGroup extends Command<{ object: 'group'; id: string; deleted: true }> {
  constructor(
    readonly walletId: string,
    readonly groupId: string,
  ) {
    super();
  }
}

/** Puts up to 1,000 contacts in the group at once (those already in it stay as they are). */
export class AddGroupContacts extends Command<ApiGroup> {
  constructor(
    readonly walletId: string,
    readonly groupId: string,
    readonly contactIds: unknown,
  ) {
    super();
  }
}

export class RemoveGroupContact extends Command<ApiGroup> {
  constructor(
    readonly walletId: string,
    readonly groupId: string,
    readonly contactId: string,
  ) {
    super();
  }
}
