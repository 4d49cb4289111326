import { formatCount } from './money';

/**
 * How the service words counts and times for people, in one place: the console's pages, its
 * mails and its refusals all say "1 credit" and "3 credits", never "credit(s)", and every time
 * in Ghana time (GMT all year, no daylight saving) in one format.
 */
const ENGLISH = /* @__PURE__ */ new Intl.PluralRules('en-US');

/**
 * "1 message", "3 messages", "20,000 credits". The plural is the noun with an s unless given
 * (`plural(n, 'entry', 'entries')`).
 */
export function plural(count: number, one: string, other = `${one}s`): string {
  return `${formatCount(count)} ${ENGLISH.select(count) === 'one' ? one : other}`;
}

/** A value of the API as a label: "transactional" is "Transactional", "in_progress" "In progress". */
export function label(value: string | null | undefined): string {
  if (!value) return '';
  const words = value.replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The zone every time is shown in, named once on each page (Ghana keeps GMT all year). */
export const TIME_ZONE_NAME = 'Ghana time (GMT)';

// Pure annotations: the console's browser bundle takes `plural` from here and drops these.
const DATE_TIME = /* @__PURE__ */ new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const DATE = /* @__PURE__ */ new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

const DAY_MONTH = /* @__PURE__ */ new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
});
const MONTH = /* @__PURE__ */ new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  month: 'long',
  year: 'numeric',
});

/** `iso` (a time, a YYYY-MM-DD day or a YYYY-MM month, all UTC) in `format`; '' when there is none. */
function shown(format: Intl.DateTimeFormat, iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(
    iso.length === 7 ? `${iso}-01T00:00:00Z` : iso.length === 10 ? `${iso}T00:00:00Z` : iso,
  );
  return Number.isNaN(at.getTime()) ? '' : format.format(at);
}

/** "25 Nov 2026, 14:05" in Ghana time, from an ISO-8601 time; '' when there is none. */
export const formatTime = (iso: string | null | undefined): string => shown(DATE_TIME, iso);

/** "25 Nov 2026", from an ISO time or a YYYY-MM-DD day. */
export const formatDate = (isoOrDay: string | null | undefined): string => shown(DATE, isoOrDay);

/** "25 Nov", from a YYYY-MM-DD day: where the year goes without saying (a chart's axis). */
export const formatDayMonth = (day: string | null | undefined): string => shown(DAY_MONTH, day);

/** "November 2026", from a YYYY-MM month. */
export const formatMonth = (month: string | null | undefined): string => shown(MONTH, month);

/** "in 3 minutes", "in 1 minute": a wait in seconds, rounded up to whole minutes past a minute. */
export function formatWait(seconds: number): string {
  if (seconds < 60) return plural(Math.max(1, Math.ceil(seconds)), 'second');
  return plural(Math.ceil(seconds / 60), 'minute');
}
