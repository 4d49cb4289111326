import { invalid, type DomainError } from '../../shared/domain-error';
import { err, ok, type Result } from '../../shared/result';
import { capturesIn, smsOf } from './settlements';
import type { WalletEvent } from './wallet.events';
import { csvField } from '../../shared/csv-field';

/** A wallet event with the time it was recorded: what a statement folds. */
export type DatedWalletEvent = WalletEvent & { readonly recordedAt: Date };

export interface StatementDay {
  readonly date: string;
  readonly purchased: number;
  readonly granted: number;
  readonly spent: number;
  readonly messages_delivered: number;
  readonly closing_balance: number;
}

/** A purchase or a grant, for the CSV's rows. */
export interface StatementCredit {
  readonly date: string;
  readonly at: string;
  readonly type: 'purchase' | 'grant';
  /** The checkout id of a purchase, the source id of a grant. */
  readonly reference: string;
  readonly description: string;
  readonly sms: number;
}

export interface Statement {
  readonly from: string;
  readonly to: string;
  readonly opening_balance: number;
  readonly purchased: number;
  readonly granted: number;
  readonly spent: number;
  readonly closing_balance: number;
  readonly days: readonly StatementDay[];
  readonly credits: readonly StatementCredit[];
}

export const MAX_STATEMENT_DAYS = 366;
const DAY_MS = 86_400_000;
const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** A UTC day `YYYY-MM-DD` that exists (2026-02-30 does not). */
function parseDay(value: string, param: string): Result<number, DomainError> {
  const time = DATE_SHAPE.test(value) ? Date.parse(`${value}T00:00:00.000Z`) : NaN;
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) {
    return err(invalid('invalid_date', `${param} must be a UTC day such as 2026-11-01`, param));
  }
  return ok(time);
}

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The period asked for: `to` defaults to today, `from` to the first day of `to`'s month; at most
 * 366 days, `from` not after `to`.
 */
export function statementPeriod(
  query: { from?: string; to?: string },
  now: Date,
): Result<{ from: string; to: string }, DomainError> {
  const to = query.to ?? utcDay(now);
  const toTime = parseDay(to, 'to');
  if (!toTime.ok) return toTime;
  const from = query.from ?? `${to.slice(0, 8)}01`;
  const fromTime = parseDay(from, 'from');
  if (!fromTime.ok) return fromTime;
  if (fromTime.value > toTime.value)
    return err(invalid('invalid_period', 'from must not be after to', 'from'));
  if ((toTime.value - fromTime.value) / DAY_MS + 1 > MAX_STATEMENT_DAYS) {
    return err(invalid('invalid_period', `A statement covers at most ${MAX_STATEMENT_DAYS} days`, 'from'));
  }
  return ok({ from, to });
}

interface DayTotals {
  purchased: number;
  granted: number;
  spent: number;
  delivered: number;
}

/**
 * Folds a wallet's own events, oldest first, into the statement of the UTC days `from`..`to`.
 * Balances are settled credits (added minus captured): a reservation still open is not spent, and
 * a released one never was. So `opening + purchased + granted - spent = closing`, and the closing
 * balance of today is what `wallet:replay` finds (sms_left plus what is reserved).
 */
export class StatementFold {
  private opening = 0;
  private readonly days = new Map<string, DayTotals>();
  private readonly credits: StatementCredit[] = [];

  constructor(
    readonly from: string,
    readonly to: string,
  ) {}

  add(event: DatedWalletEvent): void {
    const day = utcDay(event.recordedAt);
    if (day > this.to) return;
    const change = balanceChange(event);
    if (change === 0) return;
    if (day < this.from) {
      this.opening += change;
      return;
    }
    const totals = this.days.get(day) ?? { purchased: 0, granted: 0, spent: 0, delivered: 0 };
    if (event.type === 'CreditsAdded') {
      const purchase = event.data.source === 'purchase';
      if (purchase) totals.purchased += event.data.sms;
      else totals.granted += event.data.sms;
      this.credits.push({
        date: day,
        at: event.recordedAt.toISOString(),
        type: purchase ? 'purchase' : 'grant',
        reference: event.data.sourceId,
        description: event.data.reason,
        sms: event.data.sms,
      });
    } else {
      totals.spent -= change; // what balanceChange found captured
      totals.delivered += capturesIn(event).length;
    }
    this.days.set(day, totals);
  }

  result(): Statement {
    let balance = this.opening;
    const totals = { purchased: 0, granted: 0, spent: 0 };
    const days: StatementDay[] = [];
    for (let time = Date.parse(`${this.from}T00:00:00.000Z`); ; time += DAY_MS) {
      const date = new Date(time).toISOString().slice(0, 10);
      if (date > this.to) break;
      const day = this.days.get(date) ?? { purchased: 0, granted: 0, spent: 0, delivered: 0 };
      balance += day.purchased + day.granted - day.spent;
      totals.purchased += day.purchased;
      totals.granted += day.granted;
      totals.spent += day.spent;
      days.push({
        date,
        purchased: day.purchased,
        granted: day.granted,
        spent: day.spent,
        messages_delivered: day.delivered,
        closing_balance: balance,
      });
    }
    return {
      from: this.from,
      to: this.to,
      opening_balance: this.opening,
      ...totals,
      closing_balance: balance,
      days,
      credits: this.credits,
    };
  }
}

/** What an event does to the settled balance: credits added, or a reservation captured (spent). */
function balanceChange(event: WalletEvent): number {
  if (event.type === 'CreditsAdded') return event.data.sms;
  return -smsOf(capturesIn(event));
}

const CSV_HEADER = 'date,type,reference,description,sms';

/**
 * The statement as CSV: the opening balance, then per day each purchase (with its checkout id) and
 * grant (with its reason) and one row of that day's spending, then the closing balance. The `sms`
 * column adds up: opening + purchases + grants - spending = closing.
 */
export function statementCsv(s: Statement): string {
  const rows: (string | number)[][] = [
    [s.from, 'opening_balance', '', 'Balance at the start of the day', s.opening_balance],
  ];
  const creditsByDay = new Map<string, StatementCredit[]>();
  for (const c of s.credits) creditsByDay.set(c.date, [...(creditsByDay.get(c.date) ?? []), c]);
  for (const day of s.days) {
    for (const c of creditsByDay.get(day.date) ?? [])
      rows.push([c.date, c.type, c.reference, c.description, c.sms]);
    if (day.spent > 0) {
      const what = `${day.messages_delivered} message${day.messages_delivered === 1 ? '' : 's'} delivered`;
      rows.push([day.date, 'spent', '', what, -day.spent]);
    }
  }
  rows.push([s.to, 'closing_balance', '', 'Balance at the end of the day', s.closing_balance]);
  return `${[CSV_HEADER, ...rows.map((r) => r.map(csvField).join(','))].join('\r\n')}\r\n`;
}
