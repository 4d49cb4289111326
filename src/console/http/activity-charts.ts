import type {
  ActivityBucket,
  ActivityDay,
  CarrierDelivery,
} from '../../messaging/application/queries/message-activity.query';
import { formatCount } from '../../shared/money';
import { formatDate, formatDayMonth, plural } from '../../shared/wording';

/**
 * The overview's charts as inline SVG, drawn on the server: no chart library, no script, and the
 * strict CSP holds (colours come from console.css classes, never style attributes). Each chart
 * scales to its container's width through its viewBox; the numbers are also in a table beside it
 * for screen readers, so the SVG itself is hidden from them.
 */

/** Bottom to top in a stacked bar, and the legend's order. */
export const STACK_ORDER: readonly ActivityBucket[] = [
  'delivered',
  'failed',
  'expired',
  'canceled',
  'in_progress',
];

export const BUCKET_LABELS: Readonly<Record<ActivityBucket, string>> = {
  delivered: 'Delivered',
  failed: 'Failed',
  expired: 'Expired',
  canceled: 'Canceled',
  in_progress: 'Not final yet',
};

/**
 * Two sizes of chart, in viewBox units that are CSS pixels at the size each is drawn most: the
 * wide chart spans the page on a desktop, the small ones half of it (and both the whole width of
 * a phone, where console.css enlarges the wide chart's text, which shrinks with it).
 */
interface ChartSize {
  readonly width: number;
  readonly height: number;
  readonly className: string;
  /** Widest character of an axis label, in viewBox units, at the largest text the chart gets. */
  readonly charWidth: number;
}
const WIDE: ChartSize = { width: 560, height: 200, className: 'chart chart-wide', charWidth: 12 };
const SMALL: ChartSize = { width: 320, height: 180, className: 'chart chart-small', charWidth: 7.5 };
const TOP = 16;
const BOTTOM = 26;
/** Room right of the last column for half its day label. */
const RIGHT = 16;

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** "14 May" from "2026-05-14": the axis label of a day, in the console's one date format. */
const shortDay = formatDayMonth;

/**
 * The value axis: gridlines at whole numbers only (a count of messages or credits has no
 * halves), a step of 1, 2 or 5 times a power of ten, and at most five steps up to `top`, the first
 * gridline at or above the largest value.
 */
export function axisTicks(max: number): { top: number; ticks: number[] } {
  let step = 1;
  for (let magnitude = 1; Math.ceil(max / step) > 5; magnitude *= 10) {
    step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => Math.ceil(max / s) <= 5) ?? 10 * magnitude;
  }
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks: number[] = [];
  for (let value = 0; value <= top; value += step) ticks.push(value);
  return { top, ticks };
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Where the plot starts: right of the longest value label. */
const leftOf = (size: ChartSize, ticks: readonly number[]) =>
  Math.ceil(8 + size.charWidth * Math.max(...ticks.map((t) => formatCount(t).length)));

function frame(size: ChartSize, label: string, body: string, axis: { top: number; ticks: number[] }): string {
  const left = leftOf(size, axis.ticks);
  const plot = size.height - TOP - BOTTOM;
  const grid = axis.ticks
    .map((value) => {
      const y = round(TOP + plot * (1 - value / axis.top));
      return `<line class="grid" x1="${left}" x2="${size.width}" y1="${y}" y2="${y}"/><text class="axis" x="${left - 4}" y="${y + 4}" text-anchor="end">${formatCount(value)}</text>`;
    })
    .join('');
  return `<svg class="${size.className}" viewBox="0 0 ${size.width} ${size.height}" preserveAspectRatio="xMidYMid meet" aria-hidden="true" focusable="false" data-chart="${escapeXml(label)}">${grid}${body}</svg>`;
}

/** Per day, one bar of stacked segments; columns of equal width across the plot. */
function columns(size: ChartSize, left: number, days: readonly string[]) {
  const slot = (size.width - left - RIGHT) / Math.max(1, days.length);
  return days.map((day, i) => ({
    x: round(left + i * slot + slot * 0.15),
    width: round(slot * 0.7),
    label: shortDay(day),
  }));
}

function dayLabels(size: ChartSize, cols: ReturnType<typeof columns>): string {
  // Every third day's label ("14 Nov") keeps them apart on 14 columns, also on a phone, where
  // console.css enlarges the wide chart's text.
  const every = cols.length <= 7 ? 1 : 3;
  return cols
    .map((c, i) =>
      (cols.length - 1 - i) % every === 0
        ? `<text class="axis" x="${round(c.x + c.width / 2)}" y="${size.height - 6}" text-anchor="middle">${c.label}</text>`
        : '',
    )
    .join('');
}

/** Messages per day, stacked by status (STACK_ORDER). */
export function messagesPerDayChart(days: readonly ActivityDay[]): string {
  const totals = days.map((d) => STACK_ORDER.reduce((sum, b) => sum + d.messages[b], 0));
  const axis = axisTicks(Math.max(0, ...totals));
  const plot = WIDE.height - TOP - BOTTOM;
  const cols = columns(
    WIDE,
    leftOf(WIDE, axis.ticks),
    days.map((d) => d.day),
  );
  const bars = days
    .map((d, i) => {
      let y = TOP + plot;
      return STACK_ORDER.filter((b) => d.messages[b] > 0)
        .map((bucket) => {
          const count = d.messages[bucket];
          const h = (count / axis.top) * plot;
          y -= h;
          return `<rect class="bar bar-${bucket}" x="${cols[i].x}" y="${round(y)}" width="${cols[i].width}" height="${round(h)}" data-day="${d.day}" data-bucket="${bucket}" data-count="${count}"><title>${formatDate(d.day)}: ${formatCount(count)} ${BUCKET_LABELS[bucket].toLowerCase()}</title></rect>`;
        })
        .join('');
    })
    .join('');
  return frame(WIDE, 'messages-per-day', bars + dayLabels(WIDE, cols), axis);
}

/** Credits spent per day. */
export function creditsPerDayChart(days: readonly ActivityDay[]): string {
  const axis = axisTicks(Math.max(0, ...days.map((d) => d.creditsSpent)));
  const plot = SMALL.height - TOP - BOTTOM;
  const cols = columns(
    SMALL,
    leftOf(SMALL, axis.ticks),
    days.map((d) => d.day),
  );
  const bars = days
    .map((d, i) => ({ d, col: cols[i] }))
    .filter(({ d }) => d.creditsSpent > 0)
    .map(({ d, col }) => {
      const h = (d.creditsSpent / axis.top) * plot;
      return `<rect class="bar bar-credits" x="${col.x}" y="${round(TOP + plot - h)}" width="${col.width}" height="${round(h)}" data-day="${d.day}" data-count="${d.creditsSpent}"><title>${formatDate(d.day)}: ${plural(d.creditsSpent, 'credit')}</title></rect>`;
    })
    .join('');
  return frame(SMALL, 'credits-per-day', bars + dayLabels(SMALL, cols), axis);
}

/** "87%" (whole percent; "–" before any outcome). */
export const formatRate = (rate: number | null) => (rate === null ? '–' : `${Math.round(rate * 100)}%`);

/** The window's messages (canceled ones included) and the credits they spent. */
export function activityTotals(days: readonly ActivityDay[]): { messages: number; credits: number } {
  return {
    messages: days.reduce((sum, d) => sum + STACK_ORDER.reduce((n, b) => n + d.messages[b], 0), 0),
    credits: days.reduce((sum, d) => sum + d.creditsSpent, 0),
  };
}

/** All carriers together: delivered out of the messages with an outcome. */
export function overallDelivery(carriers: readonly CarrierDelivery[]): CarrierDelivery {
  const delivered = carriers.reduce((sum, c) => sum + c.delivered, 0);
  const outcomes = carriers.reduce((sum, c) => sum + c.outcomes, 0);
  return { carrier: 'All carriers', delivered, outcomes, rate: outcomes === 0 ? null : delivered / outcomes };
}

/** Delivery rate per carrier: one horizontal bar each, 0–100 %, with its counts beneath. */
export function deliveryRateChart(carriers: readonly CarrierDelivery[]): string {
  const row = 44;
  const labelWidth = 72;
  const rateWidth = 44;
  const height = Math.max(1, carriers.length) * row + 4;
  const span = SMALL.width - labelWidth - rateWidth;
  const bars = carriers
    .map((c, i) => {
      const y = 4 + i * row;
      const w = round((c.rate ?? 0) * span);
      const name = escapeXml(c.carrier);
      return (
        `<text class="label" x="${labelWidth - 6}" y="${y + 17}" text-anchor="end">${name}</text>` +
        `<rect class="track" x="${labelWidth}" y="${y + 3}" width="${span}" height="20"/>` +
        `<rect class="bar bar-delivered" x="${labelWidth}" y="${y + 3}" width="${w}" height="20" data-carrier="${name}" data-delivered="${c.delivered}" data-outcomes="${c.outcomes}"><title>${name}: ${formatCount(c.delivered)} of ${formatCount(c.outcomes)} delivered</title></rect>` +
        `<text class="label" x="${SMALL.width}" y="${y + 17}" text-anchor="end">${formatRate(c.rate)}</text>` +
        `<text class="axis" x="${labelWidth}" y="${y + 38}">${formatCount(c.delivered)} of ${plural(c.outcomes, 'message')} delivered</text>`
      );
    })
    .join('');
  return `<svg class="chart chart-small" viewBox="0 0 ${SMALL.width} ${height}" preserveAspectRatio="xMidYMid meet" aria-hidden="true" focusable="false" data-chart="delivery-rate">${bars}</svg>`;
}

/** A campaign's messages of one carrier by outcome (API.md's `by_carrier`). */
export interface CarrierOutcomes {
  readonly carrier: string;
  readonly delivered: number;
  readonly failed: number;
  readonly expired: number;
  /** Not final yet. */
  readonly pending: number;
}

const CARRIER_PARTS = [
  ['delivered', 'bar-delivered', 'delivered'],
  ['failed', 'bar-failed', 'failed'],
  ['expired', 'bar-expired', 'expired'],
  ['pending', 'bar-in_progress', 'not final yet'],
] as const;

/**
 * A campaign's messages per carrier: one horizontal bar each, stacked delivered, failed, expired
 * and not final yet, as long as the carrier's share of the busiest carrier; its counts beneath.
 */
export function carrierOutcomesChart(carriers: readonly CarrierOutcomes[]): string {
  const row = 44;
  const labelWidth = 72;
  const height = Math.max(1, carriers.length) * row + 4;
  const span = SMALL.width - labelWidth;
  const totalOf = (c: CarrierOutcomes) => c.delivered + c.failed + c.expired + c.pending;
  const largest = Math.max(1, ...carriers.map(totalOf));
  const bars = carriers
    .map((c, i) => {
      const y = 4 + i * row;
      const name = escapeXml(c.carrier);
      let x = labelWidth;
      const parts = CARRIER_PARTS.filter(([key]) => c[key] > 0)
        .map(([key, className, words]) => {
          const w = round((c[key] / largest) * span);
          const rect = `<rect class="bar ${className}" x="${round(x)}" y="${y + 3}" width="${w}" height="20" data-carrier="${name}" data-part="${key}" data-count="${c[key]}"><title>${name}: ${formatCount(c[key])} ${words}</title></rect>`;
          x += w;
          return rect;
        })
        .join('');
      return (
        `<text class="label" x="${labelWidth - 6}" y="${y + 17}" text-anchor="end">${name}</text>` +
        `<rect class="track" x="${labelWidth}" y="${y + 3}" width="${span}" height="20"/>` +
        parts +
        `<text class="axis" x="${labelWidth}" y="${y + 38}">${formatCount(c.delivered)} of ${plural(totalOf(c), 'message')} delivered</text>`
      );
    })
    .join('');
  return `<svg class="chart chart-small" viewBox="0 0 ${SMALL.width} ${height}" preserveAspectRatio="xMidYMid meet" aria-hidden="true" focusable="false" data-chart="campaign-carriers">${bars}</svg>`;
}
