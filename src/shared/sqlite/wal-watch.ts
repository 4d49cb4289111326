import { watch } from 'node:fs';

export interface WalWatch {
  close(): void;
}

/**
 * Hears of writes to a SQLite database through its WAL file: every commit, by any connection of
 * any process on this machine, appends frames to it, and the kernel's file notifications say so
 * with no wake-up at all while nothing is written (what lets an idle server rest). Only "written"
 * is told, not by whom: the caller looks at the database to see what changed.
 *
 * Answers null where the file cannot be watched (no WAL, an in-memory database, a filesystem or
 * container without notifications): the caller polls instead. `onLost` hears when a watch stops
 * working (the file was removed or replaced, an error); it is closed by then.
 */
export function watchWal(file: string, onWrite: () => void, onLost: () => void): WalWatch | null {
  if (file === ':memory:' || file === '') return null;
  try {
    let closed = false;
    const watcher = watch(`${file}-wal`, { persistent: false }, (eventType) => {
      if (closed) return;
      if (eventType === 'change') return onWrite();
      // `rename`: the WAL was removed or replaced, and this watch follows the old file.
      lose();
    });
    const lose = () => {
      if (closed) return;
      closed = true;
      watcher.close();
      onLost();
    };
    watcher.on('error', lose);
    return {
      close() {
        if (closed) return;
        closed = true;
        watcher.close();
      },
    };
  } catch {
    return null;
  }
}
