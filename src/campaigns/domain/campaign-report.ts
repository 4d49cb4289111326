import { csvField } from '../../shared/csv-field';

/** API.md: one row per message of the campaign. */
export const REPORT_HEADER =
  'message_id,to,name,status,carrier,segments,credits,error_code,created_at,final_at';

const FINAL = new Set(['DELIVERED', 'FAILED', 'EXPIRED', 'CANCELED']);

/** What a report row needs of a message, as the API shows it. */
export interface ReportedMessage {
  readonly id: string;
  readonly to: string;
  readonly status: string;
  readonly carrier: string;
  readonly segments: number;
  readonly credits: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly dlr: { readonly error_code: string | null; readonly reported_at: string } | null;
}

/** One message's row (CRLF-ended): `final_at` is when it became final, empty while it is not. */
export function reportRow(message: ReportedMessage, name: string | null): string {
  const final = FINAL.has(message.status);
  const cells: (string | number)[] = [
    message.id,
    message.to,
    name ?? '',
    message.status,
    message.carrier,
    message.segments,
    message.credits,
    message.dlr?.error_code ?? '',
    message.created_at,
    final ? (message.dlr?.reported_at ?? message.updated_at) : '',
  ];
  return `${cells.map(csvField).join(',')}\r\n`;
}
