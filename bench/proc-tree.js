'use strict';
/**
 * A server's whole process tree, read from /proc: the server process and every descendant (a
 * child process it starts for its process managers, say). Worker threads need no walking: a
 * process's /proc/<pid>/stat and status already cover all its threads.
 *
 * CPU sums utime + stime + cutime + cstime over the living members. cutime/cstime hold the
 * CPU of children that exited and were reaped, so a child that exits mid-run moves its time
 * into its parent's figure instead of dropping out of the sum. (A descendant re-parented out
 * of the tree, because its own parent died first, is lost from then on.)
 */
const { existsSync, readFileSync, readdirSync } = require('node:fs');

/** Linux reports times in USER_HZ ticks, 100 a second on every architecture it runs on. */
const TICKS_PER_SECOND = 100;

function readStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: split after its closing one.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
  } catch {
    return null; // exited meanwhile
  }
}

/** Kernels built without CONFIG_PROC_CHILDREN have no /proc/<pid>/task/<tid>/children. */
const childrenFilesExist = existsSync(`/proc/${process.pid}/task/${process.pid}/children`);

/** Direct children of pid: from each thread's children file, or a scan of /proc without them. */
function childrenOf(pid) {
  const found = [];
  if (childrenFilesExist) {
    let tids;
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return found; // exited meanwhile
    }
    for (const tid of tids) {
      try {
        for (const child of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (child) found.push(Number(child));
      } catch {
        // that thread exited meanwhile (its children, if any, moved to another thread)
      }
    }
    return found;
  }
  for (const name of readdirSync('/proc')) {
    if (/^\d+$/.test(name) && readStat(name)?.ppid === pid) found.push(Number(name));
  }
  return found;
}

/** The pid and all its descendants alive now. */
function treePids(root) {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) pids.push(...childrenOf(pids[i]));
  return pids;
}

/** CPU seconds the tree has used so far (see above), or null once the root has exited. */
function treeCpuSeconds(root) {
  const rootStat = readStat(root);
  if (!rootStat) return null;
  let ticks = rootStat.ticks;
  for (const pid of treePids(root).slice(1)) ticks += readStat(pid)?.ticks ?? 0;
  return ticks / TICKS_PER_SECOND;
}

/**
 * Nanoseconds of CPU each thread of the tree has run so far, by `pid/tid` (the scheduler's own
 * count, /proc/<pid>/task/<tid>/schedstat): exact where utime and stime come in 10 ms ticks,
 * which is what a measure of a few milliseconds a second needs. Threads that exited are gone
 * from it, so it is for windows in which the threads stay (an idle server).
 */
function treeThreadRunNs(root) {
  const threads = new Map();
  for (const pid of treePids(root)) {
    let tids;
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited meanwhile
    }
    for (const tid of tids) {
      try {
        threads.set(`${pid}/${tid}`, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
      } catch {
        // that thread exited meanwhile
      }
    }
  }
  return threads;
}

function readRssKb(pid) {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** VmRSS summed over the tree, in kB (pages shared between its processes count once per process). */
function treeRssKb(root) {
  return treePids(root).reduce((sum, pid) => sum + readRssKb(pid), 0);
}

module.exports = { treePids, treeCpuSeconds, treeRssKb, treeThreadRunNs };
