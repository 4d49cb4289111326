import type {
  ActivityBucket,
  ActivityDay,
  CarrierDelivery,
} from '../../messaging/application/queries/message-activity.query';
import { formatCount } from '../../shared/money';

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

const WIDTH = 560;
const HEIGHT = 200;
const TOP = 16;
const BOTTOM = 24;
const LEFT = 36;

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** "05-14" from "2026-05-14": the axis label of a day. */
const shortDay = (day: string) => day.slice(5);

/** A round axis top at or above `max` (1, 2, 5 × 10^n), so gridlines land on readable numbers. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= max) return step * magnitude;
  return 10 * magnitude;
}

const round = (n: number) => Math.round(n * 10) / 10;

function frame(label: string, body: string, top: number): string {
  const plot = HEIGHT - TOP - BOTTOM;
  const grid = [0, 0.5, 1]
    .map((f) => {
      const y = round(TOP + plot * (1 - f));
      return `<line class="grid" x1="${LEFT}" x2="${WIDTH}" y1="${y}" y2="${y}"/><text class="axis" x="${LEFT - 4}" y="${y + 4}" text-anchor="end">${formatCount(top * f)}</text>`;
    })
    .join('');
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="xMidYMid meet" aria-hidden="true" focusable="false" data-chart="${escapeXml(label)}">${grid}${body}</svg>`;
}

/** Per day, one bar of stacked segments; columns of equal width across the plot. */
function columns(days: readonly string[]): { x: number; width: number; label: string }[] {
  const slot = (WIDTH - LEFT) / Math.max(1, days.length);
  return days.map((day, i) => ({
    x: round(LEFT + i * slot + slot * 0.15),
    width: round(slot * 0.7),
    label: shortDay(day),
  }));
}

function dayLabels(cols: ReturnType<typeof columns>): string {
  // Every other day on 14 columns keeps the labels apart at phone width.
  const every = cols.length > 7 ? 2 : 1;
  return cols
    .map((c, i) =>
      (cols.length - 1 - i) % every === 0
        ? `<text class="axis" x="${round(c.x + c.width / 2)}" y="${HEIGHT - 6}" text-anchor="middle">${c.label}</text>`
        : '',
    )
    .join('');
}

/** Messages per day, stacked by status (STACK_ORDER). */
export function messagesPerDayChart(days: readonly ActivityDay[]): string {
  const totals = days.map((d) => STACK_ORDER.reduce((sum, b) => sum + d.messages[b], 0));
  const top = niceMax(Math.max(0, ...totals));
  const plot = HEIGHT - TOP - BOTTOM;
  const cols = columns(days.map((d) => d.day));
  const bars = days
    .map((d, i) => {
      let y = TOP + plot;
      return STACK_ORDER.filter((b) => d.messages[b] > 0)
        .map((bucket) => {
          const count = d.messages[bucket];
          const h = (count / top) * plot;
          y -= h;
          return `<rect class="bar bar-${bucket}" x="${cols[i].x}" y="${round(y)}" width="${cols[i].width}" height="${round(h)}" data-day="${d.day}" data-bucket="${bucket}" data-count="${count}"><title>${d.day}: ${formatCount(count)} ${BUCKET_LABELS[bucket].toLowerCase()}</title></rect>`;
        })
        .join('');
    })
    .join('');
  return frame('messages-per-day', bars + dayLabels(cols), top);
}

/** Credits spent per day. */
export function creditsPerDayChart(days: readonly ActivityDay[]): string {
  const top = niceMax(Math.max(0, ...days.map((d) => d.creditsSpent)));
  const plot = HEIGHT - TOP - BOTTOM;
  const cols = columns(days.map((d) => d.day));
  const bars = days
    .filter((d) => d.creditsSpent > 0)
    .map((d) => {
      const col = cols[days.indexOf(d)];
      const h = (d.creditsSpent / top) * plot;
      return `<rect class="bar bar-credits" x="${col.x}" y="${round(TOP + plot - h)}" width="${col.width}" height="${round(h)}" data-day="${d.day}" data-count="${d.creditsSpent}"><title>${d.day}: ${formatCount(d.creditsSpent)} credits</title></rect>`;
    })
    .join('');
  return frame('credits-per-day', bars + dayLabels(cols), top);
}

/** "87%" (whole percent; "–" before any outcome). */
export const formatRate = (rate: number | null) => (rate === null ? '–' : `${Math.round(rate * 100)}%`);

/** Delivery rate per carrier: one horizontal bar each, 0–100 %. */
export function deliveryRateChart(carriers: readonly CarrierDelivery[]): string {
  const row = 28;
  const labelWidth = 120;
  const height = Math.max(1, carriers.length) * row + 8;
  const span = WIDTH - labelWidth - 48;
  const bars = carriers
    .map((c, i) => {
      const y = 4 + i * row;
      const w = round((c.rate ?? 0) * span);
      return (
        `<text class="label" x="${labelWidth - 6}" y="${y + 17}" text-anchor="end">${escapeXml(c.carrier)}</text>` +
        `<rect class="track" x="${labelWidth}" y="${y + 4}" width="${span}" height="18"/>` +
        `<rect class="bar bar-delivered" x="${labelWidth}" y="${y + 4}" width="${w}" height="18" data-carrier="${escapeXml(c.carrier)}" data-delivered="${c.delivered}" data-outcomes="${c.outcomes}"><title>${escapeXml(c.carrier)}: ${formatCount(c.delivered)} of ${formatCount(c.outcomes)} delivered</title></rect>` +
        `<text class="label" x="${labelWidth + span + 6}" y="${y + 17}">${formatRate(c.rate)}</text>`
      );
    })
    .join('');
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${height}" preserveAspectRatio="xMidYMid meet" aria-hidden="true" focusable="false" data-chart="delivery-rate">${bars}</svg>`;
}
