/**
 * What the SMSC simulator does with a submit_sm, chosen by destination number. Rules are tried
 * in order; the first whose suffix ends the destination (with or without '+') wins.
 */
export type ReceiptStat =
  'DELIVRD' | 'UNDELIV' | 'EXPIRED' | 'REJECTD' | 'DELETED' | 'UNKNOWN' | 'ACCEPTD' | 'ENROUTE';

export type SimulatedOutcome =
  /** Accept with a message id, then send a receipt with this stat (and err, default 000). */
  | { readonly type: 'receipt'; readonly stat: ReceiptStat; readonly err?: string }
  /** Answer submit_sm_resp with this SMPP status name, e.g. ESME_RINVDSTADR. */
  | { readonly type: 'reject'; readonly status: string }
  /** Answer ESME_RTHROTTLED to the first `times` submissions to the number, then do `then`. */
  | { readonly type: 'throttle'; readonly times: number; readonly then: SimulatedOutcome }
  /** Accept with a message id and never send a receipt. */
  | { readonly type: 'accept-only' }
  /** Never answer the submit_sm at all (the connection stays up). */
  | { readonly type: 'hang' };

export interface OutcomeRule {
  /** Digits the destination ends with, e.g. '0000002'. '' matches everything. */
  readonly suffix: string;
  readonly outcome: SimulatedOutcome;
}

const delivered: SimulatedOutcome = { type: 'receipt', stat: 'DELIVRD', err: '000' };

/** The sandbox-style numbers: +233200000001 … +233200000005 (any number ending 000000N). */
export const DEFAULT_OUTCOME_RULES: readonly OutcomeRule[] = [
  { suffix: '0000001', outcome: delivered },
  { suffix: '0000002', outcome: { type: 'receipt', stat: 'UNDELIV', err: '001' } },
  { suffix: '0000003', outcome: { type: 'receipt', stat: 'EXPIRED', err: '000' } },
  { suffix: '0000004', outcome: { type: 'reject', status: 'ESME_RINVDSTADR' } },
  { suffix: '0000005', outcome: { type: 'throttle', times: 2, then: delivered } },
];

export function outcomeFor(destination: string, rules: readonly OutcomeRule[]): SimulatedOutcome {
  const digits = destination.replace(/^\+/, '');
  for (const rule of [...rules, ...DEFAULT_OUTCOME_RULES]) {
    if (digits.endsWith(rule.suffix.replace(/^\+/, ''))) return rule.outcome;
  }
  return delivered;
}
