import { Command } from '@nestjs/cqrs';
import type { ApiContact } from '../audience-views';

/** A contact as the API takes it; what each field must mean is the domain's to say. */
export interface ContactInput {
  readonly phone_number: unknown;
  readonly name?: unknown;
  readonly fields?: unknown;
  readonly groups?: unknown;
}

/** A partial change: only what is given changes (a field set to null is removed). */
export interface ContactPatch {
  readonly phone_number?: unknown;
  readonly name?: unknown;
  readonly fields?: unknown;
  readonly groups?: unknown;
  /** Put on (true) or taken off (false) the wallet's opt-out list, through compliance. */
  readonly opted_out?: unknown;
}

/** Who asked for an opt-out change, as the opt-out list records it. */
export type ContactSource = 'api' | 'console';

export class CreateContact extends Command<ApiContact> {
  constructor(
    readonly walletId: string,
    readonly input: ContactInput,
  ) {
    super();
  }
}

export class UpdateContact extends Command<ApiContact> {
  constructor(
    readonly walletId: string,
    readonly contactId: string,
    readonly patch: ContactPatch,
    readonly source: ContactSource,
  ) {
    super();
  }
}

/** Deletes the contact; its messages, and its number's opt-out, stay. */
export class DeleteContact extends Command<{ object: 'contact'; id: string; deleted: true }> {
  constructor(
    readonly walletId: string,
    readonly contactId: string,
  ) {
    super();
  }
}
