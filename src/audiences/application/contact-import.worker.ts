import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, runsProcessManagersHere } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import {
  ConcurrencyError,
  EVENT_STORE,
  EventStore,
  StoreUnavailableError,
} from '../../shared/event-store/event-store.port';
import { newId } from '../../shared/ids';
import { InstanceIdentity } from '../../shared/instances/instance-identity';
import { InstanceLiveness } from '../../shared/instances/instance-liveness.service';
import { QueuedWorkLoop } from '../../shared/queued-work-loop';
import { ReadModelChanges } from '../../shared/projections/read-model-changes';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import type { CountryCode } from 'libphonenumber-js/max';
import { AUDIENCES_OPTIONS, AudiencesOptions } from '../audiences.options';
import {
  contactImportRowsStream,
  contactImportStream,
  ContactImportRowsUploaded,
  ImportColumns,
  ImportRowError,
} from '../domain/audience.events';
import {
  chunkApplied,
  completeImport,
  ContactImport,
  contactImportDecider,
  failImport,
  takeImport,
} from '../domain/contact-import.decider';
import { groupIsLiveIn } from '../domain/group.decider';
import { mergeRowsByNumber, planImportChunk } from '../domain/import-chunk.plan';
import { ImportRow, importRow } from '../domain/import-rows';
import { readCsv } from '../domain/csv-reader';
import { AUDIENCES_PROJECTION, IMPORT_QUEUE, PROCESSING } from '../projections/audiences.projection';
import { AudienceStore } from './audience-store';

interface Running {
  readonly state: ContactImport;
  readonly revision: bigint;
  readonly position: bigint | null;
}

/**
 * The CSV import job. It runs where the process managers run, takes one import at a time with
 * `ContactImportTaken` at the import stream's revision (so two processes on one store never run
 * the same import), and applies the file a chunk (1,000 rows) at a time: the chunk's contact
 * events and its `ContactImportProgressed` go in one append, the progress at the revision the
 * chunk was decided on. So a chunk is applied exactly once, and a job killed midway resumes at
 * the first chunk not recorded, from the log, in whichever process takes it next (at once when
 * the holder's heartbeat says it died, else when its lease runs out).
 *
 * Memory is one chunk of rows and its streams, whatever the file's size. The import is completed
 * only once the read models show its last chunk, so "completed" means the contacts are listed.
 */
@Injectable()
export class ContactImportWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('contact-imports');
  private readonly queue: QueuedWorkLoop;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) reads: ReadStore,
    private readonly store: AudienceStore,
    private readonly projections: ProjectionsService,
    private readonly instance: InstanceIdentity,
    private readonly liveness: InstanceLiveness,
    @Inject(AUDIENCES_OPTIONS) private readonly options: AudiencesOptions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    changes: ReadModelChanges,
  ) {
    // Rests while no import is queued; a new one (listed by the read model) wakes it.
    this.queue = new QueuedWorkLoop(
      {
        noun: 'contact import',
        collection: IMPORT_QUEUE,
        partition: PROCESSING,
        pollMs: options.importPollMs,
        restMs: config.idlePollMs,
        run: (id) => this.run(id),
      },
      reads,
      changes,
      this.logger,
    );
  }

  onApplicationBootstrap(): void {
    if (runsProcessManagersHere(this.config)) this.queue.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.stop();
  }

  private async run(importId: string): Promise<void> {
    const now = this.clock.now();
    const taken = await this.store.aggregates.handle(
      contactImportStream(importId),
      contactImportDecider,
      (state) =>
        takeImport(state, {
          instance: this.instance.id,
          now,
          leaseMs: this.options.importLeaseMs,
          holderDead: state.holder !== null && this.liveness.isDead(state.holder),
        }),
    );
    if (
      !taken.ok ||
      taken.value.state.holder !== this.instance.id ||
      taken.value.state.status !== 'processing'
    )
      return;
    let running: Running = taken.value;
    const { groupId, walletId } = running.state;
    if (groupId && !groupIsLiveIn((await this.store.group(groupId)).state, walletId as string)) {
      await this.fail(importId, 'group_missing', 'The group was deleted before the import ran');
      return;
    }
    let last = running.position;
    while (running.state.chunksDone < running.state.chunks) {
      if (this.queue.isStopped()) return; // the next start (or another process) resumes from the log
      const next = await this.applyChunk(importId, running);
      if (!next) return;
      running = next;
      last = next.position ?? last;
    }
    if (!(await this.readModelReached(last))) return;
    await this.store.aggregates.handle(contactImportStream(importId), contactImportDecider, (state) =>
      completeImport(state, { instance: this.instance.id, now: this.clock.now() }),
    );
  }

  /**
   * Waits for the read model to list the import's last chunk: a large import's contacts may take
   * the read model longer than one wait allows, which is no failure. False when stopping.
   */
  private async readModelReached(position: bigint | null): Promise<boolean> {
    for (;;) {
      if (this.queue.isStopped()) return false;
      try {
        await this.projections.waitFor(position, [AUDIENCES_PROJECTION]);
        return true;
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
      }
    }
  }

  /** Applies the next chunk, deciding again on fresh streams after a conflict; null when the job was taken over. */
  private async applyChunk(importId: string, running: Running): Promise<Running | null> {
    const chunk = running.state.chunksDone;
    const [uploaded] = await this.events.readStream(contactImportRowsStream(importId), {
      fromRevision: BigInt(chunk),
      limit: 1,
    });
    if (!uploaded) {
      await this.fail(importId, 'file_missing', `Chunk ${chunk} of the file is missing from the log`);
      return null;
    }
    const { csv, rows } = (uploaded as unknown as ContactImportRowsUploaded).data;
    const valid: ImportRow[] = [];
    const rowErrors: ImportRowError[] = [];
    const columns = running.state.columns as ImportColumns;
    const country = running.state.defaultCountry as CountryCode | null;
    for (const { fields } of readCsv(csv)) {
      const [line, ...cells] = fields;
      const read = importRow(Number(line), cells, columns, country);
      if (read.ok) valid.push(read.row);
      else rowErrors.push(read.error);
    }
    const merged = mergeRowsByNumber(valid);
    const walletId = running.state.walletId as string;
    for (let attempt = 1; ; attempt++) {
      const now = this.clock.now();
      const streams = new Map(
        await Promise.all(
          merged.map(
            async (row) =>
              [row.phoneNumber, await this.store.numberStreams(walletId, row.phoneNumber)] as const,
          ),
        ),
      );
      const plan = planImportChunk({
        walletId,
        groupId: running.state.groupId,
        mark: { id: importId, batch: chunk },
        rows: merged,
        streams,
        newContactId: () => newId('con'),
        now,
      });
      const progress = chunkApplied(running.state, {
        instance: this.instance.id,
        chunk,
        rows,
        created: plan.created,
        updated: plan.updated,
        errors: [...rowErrors, ...plan.errors].sort((a, b) => a.line - b.line),
        now,
        leaseMs: this.options.importLeaseMs,
      });
      if (!progress.ok) return null;
      try {
        const position = await this.store.append([
          ...plan.appends,
          { streamId: contactImportStream(importId), events: progress.value, revision: running.revision },
        ]);
        return {
          state: progress.value.reduce(contactImportDecider.evolve, running.state),
          revision: running.revision + BigInt(progress.value.length),
          position,
        };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= 20) throw error;
        // Someone else wrote a contact (or took the job): decide again on what the log now says.
        const fresh = await this.store.contactImport(importId);
        if (fresh.state.holder !== this.instance.id || fresh.state.chunksDone !== chunk) return null;
        running = { state: fresh.state, revision: fresh.revision, position: running.position };
      }
    }
  }

  private async fail(importId: string, code: string, message: string): Promise<void> {
    this.logger.warn(`contact import ${importId} failed: ${message}`);
    await this.store.aggregates.handle(contactImportStream(importId), contactImportDecider, (state) =>
      failImport(state, { instance: this.instance.id, code, message, now: this.clock.now() }),
    );
  }
}
