import { Command } from '@nestjs/cqrs';
import type { ApiContactImport } from '../audience-views';

/** The CSV file as it arrives: pieces of bytes (or text), read once, in order. */
export type CsvSource = AsyncIterable<Buffer | string>;

export interface ImportOptions {
  /** `?group=`: every imported contact joins it. */
  readonly group?: string;
  /** `?default_country=GH`: how local numbers (0241234567) are read. */
  readonly defaultCountry?: string;
}

/**
 * Reads an uploaded CSV file into the log (its header checked, its rows counted and stored in
 * chunks, never held whole) and starts the import job, which applies it in the background.
 */
export class StartContactImport extends Command<ApiContactImport> {
  constructor(
    readonly walletId: string,
    readonly file: CsvSource,
    readonly options: ImportOptions,
    /** The body's announced size, when known: a file announced too large is refused unread. */
    readonly declaredBytes?: number,
  ) {
    super();
  }
}
