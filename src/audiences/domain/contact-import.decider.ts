import type { Decider } from '../../shared/decider';
import { DomainError, notFound } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type {
  ContactImportEvent,
  ContactImportStarted,
  ImportColumns,
  ImportRowError,
} from './audience.events';

/** The first errors an import keeps by line (API.md): the rest are only counted. */
export const MAX_REPORTED_ERRORS = 100;

export type ImportStatus = 'processing' | 'completed' | 'failed';

export interface ContactImport {
  readonly importId: string | null;
  readonly walletId: string | null;
  readonly groupId: string | null;
  readonly defaultCountry: string | null;
  readonly columns: ImportColumns | null;
  readonly rowsTotal: number;
  readonly chunks: number;
  readonly startedAt: string | null;
  readonly status: ImportStatus | null;
  /** Chunks applied, in order: the next one to apply is this index. */
  readonly chunksDone: number;
  readonly rowsDone: number;
  readonly created: number;
  readonly updated: number;
  readonly errorsCount: number;
  readonly errors: readonly ImportRowError[];
  /** The process that runs it, and until when nobody else may. */
  readonly holder: string | null;
  readonly leaseUntil: string | null;
  readonly finishedAt: string | null;
  readonly failure: { readonly code: string; readonly message: string } | null;
}

const initialState = (): ContactImport => ({
  importId: null,
  walletId: null,
  groupId: null,
  defaultCountry: null,
  columns: null,
  rowsTotal: 0,
  chunks: 0,
  startedAt: null,
  status: null,
  chunksDone: 0,
  rowsDone: 0,
  created: 0,
  updated: 0,
  errorsCount: 0,
  errors: [],
  holder: null,
  leaseUntil: null,
  finishedAt: null,
  failure: null,
});

export const contactImportDecider: Decider<ContactImport, ContactImportEvent> = {
  initialState,
  evolve(state, event) {
    switch (event.type) {
      case 'ContactImportStarted': {
        const d = event.data;
        return {
          ...state,
          importId: d.importId,
          walletId: d.walletId,
          groupId: d.groupId,
          defaultCountry: d.defaultCountry,
          columns: d.columns,
          rowsTotal: d.rowsTotal,
          chunks: d.chunks,
          startedAt: d.startedAt,
          status: 'processing',
        };
      }
      case 'ContactImportTaken':
        return { ...state, holder: event.data.instance, leaseUntil: event.data.leaseUntil };
      case 'ContactImportProgressed': {
        const d = event.data;
        return {
          ...state,
          chunksDone: d.chunk + 1,
          rowsDone: state.rowsDone + d.rows,
          created: state.created + d.created,
          updated: state.updated + d.updated,
          errorsCount: state.errorsCount + d.errorsCount,
          errors: [...state.errors, ...d.errors].slice(0, MAX_REPORTED_ERRORS),
          leaseUntil: d.leaseUntil,
        };
      }
      case 'ContactImportCompleted':
        return { ...state, status: 'completed', holder: null, finishedAt: event.data.completedAt };
      case 'ContactImportFailed':
        return {
          ...state,
          status: 'failed',
          holder: null,
          finishedAt: event.data.failedAt,
          failure: { code: event.data.code, message: event.data.message },
        };
      default:
        return state;
    }
  },
};

export const importMissing = (param?: string) => notFound('contact import', param);

type Decision = Result<ContactImportEvent[], DomainError>;

export function startImport(state: ContactImport, started: ContactImportStarted['data']): Decision {
  if (state.importId !== null) return ok([]);
  return ok([{ type: 'ContactImportStarted', data: started }]);
}

export interface TakeImport {
  readonly instance: string;
  readonly now: Date;
  readonly leaseMs: number;
  /** The holder's heartbeat says it died: its lease need not run out first. */
  readonly holderDead: boolean;
}

/** Whether this process may take the job now: it runs, and nobody else holds a live lease on it. */
export function mayTake(state: ContactImport, cmd: TakeImport): boolean {
  if (state.status !== 'processing') return false;
  if (state.holder === null || state.holder === cmd.instance || cmd.holderDead) return true;
  return state.leaseUntil === null || Date.parse(state.leaseUntil) <= cmd.now.getTime();
}

/** Takes (or takes over) the job: nothing when it is finished or another process holds it. */
export function takeImport(state: ContactImport, cmd: TakeImport): Decision {
  if (!mayTake(state, cmd)) return ok([]);
  return ok([
    {
      type: 'ContactImportTaken',
      data: {
        importId: state.importId as string,
        instance: cmd.instance,
        leaseUntil: new Date(cmd.now.getTime() + cmd.leaseMs).toISOString(),
        at: cmd.now.toISOString(),
      },
    },
  ]);
}

const lostIt = () => new DomainError('conflict', 'import_taken_over', 'Another process runs this import now');

export interface ChunkApplied {
  readonly instance: string;
  readonly chunk: number;
  readonly rows: number;
  readonly created: number;
  readonly updated: number;
  readonly errors: readonly ImportRowError[];
  readonly now: Date;
  readonly leaseMs: number;
}

/** Records one chunk, in order, by the holder only (its lease renewed with it). */
export function chunkApplied(state: ContactImport, cmd: ChunkApplied): Decision {
  if (state.status !== 'processing' || state.holder !== cmd.instance) return err(lostIt());
  if (cmd.chunk !== state.chunksDone) return err(lostIt());
  const room = Math.max(0, MAX_REPORTED_ERRORS - state.errors.length);
  return ok([
    {
      type: 'ContactImportProgressed',
      data: {
        importId: state.importId as string,
        chunk: cmd.chunk,
        rows: cmd.rows,
        created: cmd.created,
        updated: cmd.updated,
        errorsCount: cmd.errors.length,
        errors: cmd.errors.slice(0, room),
        leaseUntil: new Date(cmd.now.getTime() + cmd.leaseMs).toISOString(),
        at: cmd.now.toISOString(),
      },
    },
  ]);
}

export function completeImport(state: ContactImport, cmd: { instance: string; now: Date }): Decision {
  if (state.status !== 'processing') return ok([]);
  if (state.holder !== cmd.instance || state.chunksDone < state.chunks) return err(lostIt());
  return ok([
    {
      type: 'ContactImportCompleted',
      data: { importId: state.importId as string, completedAt: cmd.now.toISOString() },
    },
  ]);
}

export function failImport(
  state: ContactImport,
  cmd: { instance: string; code: string; message: string; now: Date },
): Decision {
  if (state.status !== 'processing') return ok([]);
  if (state.holder !== cmd.instance) return err(lostIt());
  return ok([
    {
      type: 'ContactImportFailed',
      data: {
        importId: state.importId as string,
        code: cmd.code,
        message: cmd.message,
        failedAt: cmd.now.toISOString(),
      },
    },
  ]);
}
