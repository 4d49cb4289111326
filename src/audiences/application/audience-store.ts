import { Inject, Injectable } from '@nestjs/common';
import { AggregateStore, Loaded } from '../../shared/event-store/aggregate-store';
import { ConcurrencyError, EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import {
  contactImportStream,
  contactNumberStream,
  contactStream,
  groupStream,
  templateStream,
} from '../domain/audience.events';
import { ContactImport, contactImportDecider } from '../domain/contact-import.decider';
import { claimNumber, ContactNumber, contactNumberDecider } from '../domain/contact-number.decider';
import { Contact, contactDecider } from '../domain/contact.decider';
import { Group, groupDecider, groupIsLiveIn, groupMissing } from '../domain/group.decider';
import type { DomainEvent } from '../../shared/decider';
import type { NumberStreams, PlannedAppend } from '../domain/import-chunk.plan';
import { unwrap } from '../../shared/result';
import { Template, templateDecider } from '../domain/template.decider';

/** How often a decision across several streams is tried again when another writer got there first. */
const ATTEMPTS = 10;

/**
 * The audience's streams as the use cases read and write them: each aggregate folded from the
 * log (never from a read model, so a decision sees every other process's writes), and decisions
 * that touch several streams (a contact and its number's claim) appended together, each stream at
 * the revision it was decided on.
 */
@Injectable()
export class AudienceStore {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    readonly aggregates: AggregateStore,
  ) {}

  contact(contactId: string): Promise<Loaded<Contact>> {
    return this.aggregates.load(contactStream(contactId), contactDecider);
  }

  claim(walletId: string, phoneNumber: string): Promise<Loaded<ContactNumber>> {
    return this.aggregates.load(contactNumberStream(walletId, phoneNumber), contactNumberDecider);
  }

  /** A number's claim and, when it has one, its holder's stream: what a claim is decided on. */
  async numberStreams(walletId: string, phoneNumber: string): Promise<NumberStreams> {
    const claim = await this.claim(walletId, phoneNumber);
    const holder = claim.state.holder ? await this.contact(claim.state.holder) : null;
    return { claim, holder };
  }

  /**
   * The number's claim for the contact, decided on its stream and its holder's as they are now:
   * the append to write with the contact's, or `409 contact_exists`.
   */
  async claimFor(
    walletId: string,
    phoneNumber: string,
    contactId: string,
    now: Date,
  ): Promise<PlannedAppend> {
    const { claim, holder } = await this.numberStreams(walletId, phoneNumber);
    const claimed = unwrap(
      claimNumber(claim.state, {
        walletId,
        phoneNumber,
        contactId,
        holder: holder && { state: holder.state, exists: holder.revision >= 0n },
        now,
      }),
    );
    return {
      streamId: contactNumberStream(walletId, phoneNumber),
      events: claimed,
      revision: claim.revision,
    };
  }

  group(groupId: string): Promise<Loaded<Group>> {
    return this.aggregates.load(groupStream(groupId), groupDecider);
  }

  template(templateId: string): Promise<Loaded<Template>> {
    return this.aggregates.load(templateStream(templateId), templateDecider);
  }

  contactImport(importId: string): Promise<Loaded<ContactImport>> {
    return this.aggregates.load(contactImportStream(importId), contactImportDecider);
  }

  /** The groups, each live in this wallet, or 404 naming the first one that is not (`groups[2]`). */
  async requireGroups(walletId: string, groupIds: readonly string[], param: string): Promise<void> {
    const loaded = await Promise.all(groupIds.map((id) => this.group(id)));
    const missing = loaded.findIndex((g) => !groupIsLiveIn(g.state, walletId));
    if (missing >= 0) throw groupMissing(`${param}[${missing}]`);
  }

  /**
   * Appends every planned stream at its revision, together (one transaction where the store has
   * them; in this order elsewhere). Answers the log position of the last event, null for nothing.
   */
  async append(
    appends: readonly { streamId: string; events: readonly DomainEvent[]; revision: bigint }[],
  ): Promise<bigint | null> {
    const writes = appends
      .filter((a) => a.events.length > 0)
      .map((a) => ({
        streamId: a.streamId,
        events: a.events.map((e) => ({ type: e.type, data: e.data })),
        expected: a.revision < 0n ? ('no_stream' as const) : a.revision,
      }));
    if (writes.length === 0) return null;
    const results = await this.events.appendAll(writes);
    return results.reduce((max, r) => (r.position > max ? r.position : max), -1n);
  }

  /** Runs a decision again on fresh streams while another writer keeps getting there first. */
  async retrying<T>(decideAndAppend: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await decideAndAppend();
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
      }
    }
  }
}
