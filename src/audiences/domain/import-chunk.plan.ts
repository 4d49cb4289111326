import {
  contactNumberStream,
  contactStream,
  type ContactEvent,
  type ContactNumberEvent,
  type ImportMark,
  type ImportRowError,
} from './audience.events';
import { changeContact, Contact, contactDecider, createContact, holdsNumber } from './contact.decider';
import { sortedFields } from './contact-input';
import { claimNumber, ContactNumber } from './contact-number.decider';
import type { ImportRow } from './import-rows';

/**
 * What one chunk of an import does to the audience, decided on the streams as they stand: for
 * each number, update the contact that holds it (fields merged, the import's group joined) or
 * create a contact and claim the number for it. Pure: the job loads the streams, appends what
 * this answers in one go with the chunk's progress, and decides again on a conflict.
 *
 * Run twice (an interrupted run on a store without multi-stream transactions), a chunk finds
 * its own work by the import mark on the contacts and claims it wrote, and counts it again as
 * created or updated without recording anything twice.
 */
/** A stream's state and the revision it was folded to (-1n: no stream yet). */
export interface AtRevision<State> {
  readonly state: State;
  readonly revision: bigint;
}

export interface NumberStreams {
  readonly claim: AtRevision<ContactNumber>;
  /** The holder's contact stream, when the number has a holder. */
  readonly holder: AtRevision<Contact> | null;
}

export interface PlannedAppend {
  readonly streamId: string;
  readonly events: readonly (ContactEvent | ContactNumberEvent)[];
  /** The stream's revision the decision was made on (-1n: no stream yet). */
  readonly revision: bigint;
}

export interface ChunkPlan {
  readonly appends: readonly PlannedAppend[];
  readonly created: number;
  readonly updated: number;
  readonly errors: readonly ImportRowError[];
}

export interface ChunkInput {
  readonly walletId: string;
  readonly groupId: string | null;
  readonly mark: ImportMark;
  /** The chunk's valid rows, one per number (see mergeRowsByNumber). */
  readonly rows: readonly MergedRow[];
  readonly streams: ReadonlyMap<string, NumberStreams>;
  readonly newContactId: () => string;
  readonly now: Date;
}

/** A number's rows of one chunk folded into one, in file order (later cells win). */
export interface MergedRow {
  readonly phoneNumber: string;
  readonly lines: readonly number[];
  readonly name: string | null;
  readonly fields: Readonly<Record<string, string>>;
}

export function mergeRowsByNumber(rows: readonly ImportRow[]): MergedRow[] {
  const byNumber = new Map<string, MergedRow>();
  for (const row of rows) {
    const known = byNumber.get(row.phoneNumber);
    byNumber.set(
      row.phoneNumber,
      known
        ? {
            phoneNumber: row.phoneNumber,
            lines: [...known.lines, row.line],
            name: row.name ?? known.name,
            fields: { ...known.fields, ...row.fields },
          }
        : { phoneNumber: row.phoneNumber, lines: [row.line], name: row.name, fields: row.fields },
    );
  }
  return [...byNumber.values()];
}

const sameMark = (a: ImportMark | null | undefined, b: ImportMark) =>
  !!a && a.id === b.id && a.batch === b.batch;

export function planImportChunk(input: ChunkInput): ChunkPlan {
  const appends: PlannedAppend[] = [];
  const errors: ImportRowError[] = [];
  let created = 0;
  let updated = 0;
  const joinGroups = input.groupId ? [input.groupId] : [];
  for (const row of input.rows) {
    const streams = input.streams.get(row.phoneNumber);
    if (!streams) throw new Error(`the streams of ${row.phoneNumber} were not loaded`);
    const { claim, holder } = streams;
    const line = row.lines[row.lines.length - 1];
    if (holder && holdsNumber(holder.state, row.phoneNumber) && holder.state.walletId === input.walletId) {
      const contact = holder.state;
      if (contact.importMark && sameMark(contact.importMark, input.mark)) {
        if (contact.importMark.kind === 'created') created++;
        else updated++;
        continue;
      }
      const changed = changeContact(contact, {
        walletId: input.walletId,
        ...(row.name === null ? {} : { name: row.name }),
        fields: row.fields,
        joinGroups,
        now: input.now,
        import: input.mark,
      });
      if (!changed.ok) {
        errors.push({ line, code: changed.error.code, message: changed.error.message });
        continue;
      }
      if (changed.value.length === 0) continue;
      appends.push({
        streamId: contactStream(contact.contactId as string),
        events: changed.value,
        revision: holder.revision,
      });
      updated++;
      continue;
    }
    // A claim this very batch wrote for a contact it never got to write: finish that contact.
    const ownUnwritten =
      claim.state.holder !== null &&
      holder !== null &&
      holder.revision < 0n &&
      sameMark(claim.state.importMark, input.mark);
    const contactId = ownUnwritten ? (claim.state.holder as string) : input.newContactId();
    if (!ownUnwritten) {
      const claimed = claimNumber(claim.state, {
        walletId: input.walletId,
        phoneNumber: row.phoneNumber,
        contactId,
        holder: holder ? { state: holder.state, exists: holder.revision >= 0n } : null,
        now: input.now,
        import: input.mark,
      });
      if (!claimed.ok) {
        errors.push({
          line,
          code: 'contact_busy',
          message: `${row.phoneNumber} is being added by another request; import it again`,
        });
        continue;
      }
      appends.push({
        streamId: contactNumberStream(input.walletId, row.phoneNumber),
        events: claimed.value,
        revision: claim.revision,
      });
    }
    const made = createContact(contactDecider.initialState(), {
      contactId,
      walletId: input.walletId,
      phoneNumber: row.phoneNumber,
      name: row.name,
      fields: sortedFields(row.fields),
      groups: joinGroups,
      now: input.now,
      import: input.mark,
    });
    if (!made.ok) throw made.error; // creating a fresh contact cannot be refused
    appends.push({ streamId: contactStream(contactId), events: made.value, revision: -1n });
    created++;
  }
  return { appends, created, updated, errors };
}
