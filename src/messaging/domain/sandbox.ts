import type { FinalStatus } from '../ports/carrier.port';

/** What the simulated (TEST) carrier does with a number. */
export type SimulatedOutcome =
  /** Accepted, then a delivery report with this outcome. */
  | {
      readonly stage: 'receipt';
      readonly status: FinalStatus;
      readonly carrierStatus: string;
      readonly errorCode: string | null;
      readonly errorMessage: string | null;
    }
  /** Refused at submission: never SENT, ends FAILED. */
  | { readonly stage: 'submit'; readonly errorCode: string; readonly errorMessage: string };

const DELIVERED: SimulatedOutcome = {
  stage: 'receipt',
  status: 'DELIVERED',
  carrierStatus: 'DELIVRD',
  errorCode: null,
  errorMessage: null,
};

/** API.md "Sandbox numbers": fixed outcomes under TEST keys and in the try-out. */
const SANDBOX: ReadonlyMap<string, SimulatedOutcome> = new Map<string, SimulatedOutcome>([
  ['+233200000001', DELIVERED],
  [
    '+233200000002',
    {
      stage: 'receipt',
      status: 'FAILED',
      carrierStatus: 'UNDELIV',
      errorCode: 'undeliverable',
      errorMessage: 'The carrier could not deliver the message to the handset',
    },
  ],
  [
    '+233200000003',
    { stage: 'receipt', status: 'EXPIRED', carrierStatus: 'EXPIRED', errorCode: null, errorMessage: null },
  ],
  [
    '+233200000004',
    { stage: 'submit', errorCode: 'rejected', errorMessage: 'The carrier rejected the message' },
  ],
]);

export const SANDBOX_NUMBERS: readonly string[] = [...SANDBOX.keys()];

export const isSandboxNumber = (to: string): boolean => SANDBOX.has(to);

/** The fixed outcome of a sandbox number, or null for any other number. */
export const sandboxOutcome = (to: string): SimulatedOutcome | null => SANDBOX.get(to) ?? null;

/** What a TEST send to `to` ends as: the sandbox outcome, else DELIVERED. */
export const simulatedOutcome = (to: string): SimulatedOutcome => SANDBOX.get(to) ?? DELIVERED;
