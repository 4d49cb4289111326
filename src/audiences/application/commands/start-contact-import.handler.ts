import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { StringDecoder } from 'node:string_decoder';
import { CLOCK, Clock } from '../../../shared/clock';
import { DomainError, invalid } from '../../../shared/domain-error';
import { EVENT_STORE, EventStore } from '../../../shared/event-store/event-store.port';
import { isIdOf, newId } from '../../../shared/ids';
import { unwrap } from '../../../shared/result';
import {
  contactImportRowsStream,
  contactImportStream,
  ContactImportRowsUploaded,
  ImportColumns,
} from '../../domain/audience.events';
import { contactImportDecider, startImport } from '../../domain/contact-import.decider';
import { csvLine, CsvProblem, CsvReader, isBlankRecord } from '../../domain/csv-reader';
import { groupMissing } from '../../domain/group.decider';
import { defaultCountry, importColumns, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../../domain/import-rows';
import { AudienceStore } from '../audience-store';
import { ApiContactImport, toApiContactImport } from '../audience-views';
import { StartContactImport } from './start-contact-import.command';

/** A chunk of the file in the log: this many rows, or about this much text, whichever comes first. */
export const CHUNK_ROWS = 1000;
const CHUNK_CHARS = 256 * 1024;

const tooLarge = () =>
  new DomainError(
    'payload_too_large',
    'body_too_large',
    `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB: split it into several imports`,
  );

/**
 * Streams the file into the log as it arrives: the header is checked first (a file without a
 * phone column is refused before anything is kept), rows are stored in chunks of 1,000, and only
 * once the whole file has been read (and counted: at most 200,000 rows) is the import started.
 * A file refused midway leaves its chunks unreferenced in the log; nothing reads them.
 */
@CommandHandler(StartContactImport)
export class StartContactImportHandler implements ICommandHandler<StartContactImport, ApiContactImport> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly store: AudienceStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ walletId, file, options, declaredBytes }: StartContactImport): Promise<ApiContactImport> {
    if (declaredBytes !== undefined && declaredBytes > MAX_IMPORT_BYTES) throw tooLarge();
    const country = unwrap(defaultCountry(options.defaultCountry));
    const groupId = options.group || null;
    if (groupId !== null) {
      if (!isIdOf('grp', groupId)) throw groupMissing('group');
      await this.store.requireGroups(walletId, [groupId], 'group').catch((error: unknown) => {
        throw error instanceof DomainError ? groupMissing('group') : error;
      });
    }
    const importId = newId('imp');
    const rowsStream = contactImportRowsStream(importId);
    const decoder = new StringDecoder('utf8');
    const reader = new CsvReader();
    let columns: ImportColumns | null = null;
    let bytes = 0;
    let rowsTotal = 0;
    let chunk = '';
    let chunkRows = 0;
    let chunks = 0;
    const flush = async () => {
      if (chunkRows === 0) return;
      const event: ContactImportRowsUploaded = {
        type: 'ContactImportRowsUploaded',
        data: { importId, chunk: chunks, rows: chunkRows, csv: chunk },
      };
      await this.events.append(rowsStream, [event], chunks === 0 ? 'no_stream' : BigInt(chunks - 1));
      chunks++;
      chunk = '';
      chunkRows = 0;
    };
    const take = async (records: ReturnType<CsvReader['push']>) => {
      for (const record of records) {
        if (isBlankRecord(record)) continue;
        if (!columns) {
          columns = unwrap(importColumns(record.fields));
          continue;
        }
        if (++rowsTotal > MAX_IMPORT_ROWS)
          throw invalid(
            'too_many_rows',
            `The file has more than ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows: split it into several imports`,
            'file',
          );
        chunk += `${csvLine([String(record.line), ...record.fields])}\n`;
        chunkRows++;
        if (chunkRows >= CHUNK_ROWS || chunk.length >= CHUNK_CHARS) await flush();
      }
    };
    try {
      for await (const piece of file) {
        bytes += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
        if (bytes > MAX_IMPORT_BYTES) throw tooLarge();
        await take(reader.push(typeof piece === 'string' ? piece : decoder.write(piece)));
      }
      await take(reader.push(decoder.end()));
      await take(reader.end());
    } catch (error) {
      if (error instanceof CsvProblem) throw invalid('invalid_file', error.message, 'file');
      throw error;
    }
    if (!columns) throw invalid('invalid_file', 'The file is empty: it needs a header row and rows', 'file');
    if (rowsTotal === 0)
      throw invalid('invalid_file', 'The file has a header row but no rows under it', 'file');
    await flush();
    const started = unwrap(
      await this.store.aggregates.handle(contactImportStream(importId), contactImportDecider, (state) =>
        startImport(state, {
          importId,
          walletId,
          groupId,
          defaultCountry: country,
          columns: columns as ImportColumns,
          rowsTotal,
          chunks,
          startedAt: this.clock.now().toISOString(),
        }),
      ),
    );
    return toApiContactImport(started.state);
  }
}
