import { readFileSync, readlinkSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { randomToken } from '../ids';

/**
 * This process's instance: one id per server process, shared by its threads (the HTTP thread
 * makes it and hands it to its worker thread), new at every start. Dispatch leases name it as
 * their holder and reservations carry it, so the work of an instance that died can be found.
 */
export class InstanceIdentity {
  readonly pid = process.pid;
  readonly host = currentHostKey();
  readonly startedAt = new Date().toISOString();

  constructor(readonly id: string = inheritedInstanceId() ?? `ins_${randomToken(16)}`) {}
}

/** The id the HTTP thread gave its worker thread (see WorkerThread). */
function inheritedInstanceId(): string | null {
  const given = (workerData as { instanceId?: unknown } | null)?.instanceId;
  return typeof given === 'string' ? given : null;
}

/**
 * The kernel's boot id and this process's pid namespace: two processes with the same key see
 * the same process table, so one can ask whether the other's pid still runs. Null off Linux.
 */
export function currentHostKey(): string | null {
  if (process.platform !== 'linux') return null;
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return `${boot}/${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return null;
  }
}

/** Whether a pid runs in this process table (EPERM: it does, as another user). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
