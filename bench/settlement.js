'use strict';
/**
 * Counts a running server's accepted and settled messages in its events.db, through a
 * read-only connection (WAL lets it read while the server writes). Accepted: a reservation was
 * made (`CreditsReserved`); settled: that reservation was captured or released, alone or among
 * the many of a `ReservationsSettled`. The backlog is the difference: messages the service has
 * taken on and not yet finished.
 *
 * Each read counts only the rows after the last position it saw, so a poll costs what was
 * appended since. That is exact because the log becomes visible in position order: every
 * append commits under SQLite's single write lock, so a reader that sees a position sees every
 * position before it.
 */
const { join } = require('node:path');

const ACCEPTED = ['CreditsReserved'];
const SETTLED = ['ReservationCaptured', 'ReservationReleased', 'ReservationsSettled'];
/** Events that settle many reservations: each counts the messages its lists name. */
const SETTLED_MANY = 'ReservationsSettled';
/** A message's final outcome (with `finals: true`). */
const FINAL = ['MessageDelivered', 'MessageFailed', 'MessageExpired'];

function settlementCounter(dataDir, { finals: countFinals = false } = {}) {
  const Database = require('better-sqlite3');
  const db = new Database(join(dataDir, 'events.db'), { readonly: true, fileMustExist: true });
  const types = [...ACCEPTED, ...SETTLED, ...(countFinals ? FINAL : [])];
  const since = db.prepare(
    `SELECT type, max(position) AS last,
            sum(CASE WHEN type = '${SETTLED_MANY}'
                THEN json_array_length(data, '$.captured') + json_array_length(data, '$.released')
                ELSE 1 END) AS n
       FROM events
      WHERE type IN (${types.map(() => '?').join(', ')}) AND position > ? GROUP BY type`,
  );
  let position = 0;
  let accepted = 0;
  let settled = 0;
  let finals = 0;
  return {
    /** The counts now: { accepted, settled, backlog, finals } (finals stays 0 unless counted). */
    read() {
      let last = position;
      for (const row of since.all(...types, position)) {
        if (ACCEPTED.includes(row.type)) accepted += row.n;
        else if (SETTLED.includes(row.type)) settled += row.n;
        else finals += row.n;
        last = Math.max(last, row.last);
      }
      position = last;
      return { accepted, settled, backlog: accepted - settled, finals };
    },
    close() {
      db.close();
    },
  };
}

/** Explains an empty count: the events this file counts no longer exist under these names. */
function noAcceptedEvents(okSends) {
  return `${okSends} sends answered 200 but events.db holds no ${ACCEPTED.join('/')} event: update ACCEPTED and SETTLED in bench/settlement.js to the events that now record a reservation and its settlement`;
}

module.exports = { settlementCounter, noAcceptedEvents };
