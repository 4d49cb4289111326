import { errors } from 'smpp';

/** SMPP command_status values the adapter and the simulator act on. */
export const SmppStatus = {
  ESME_ROK: 0x00,
  ESME_RMSGQFUL: 0x14,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVBNDSTS: 0x04,
  ESME_RINVDSTADR: 0x0b,
  ESME_RTHROTTLED: 0x58,
  ESME_RX_T_APPN: 0x64,
  ESME_RSYSERR: 0x08,
} as const;

const namesByCode = new Map<number, string>();
for (const [name, code] of Object.entries(errors)) {
  if (!namesByCode.has(code)) namesByCode.set(code, name);
}

/** The SMPP name of a command_status, e.g. 0x0B → ESME_RINVDSTADR; unknown codes as ESME_0x0000XXXX. */
export function smppStatusName(code: number): string {
  return namesByCode.get(code) ?? `ESME_0x${code.toString(16).toUpperCase().padStart(8, '0')}`;
}

/** The code of a status name, or undefined when the name is not an SMPP status. */
export function smppStatusCode(name: string): number | undefined {
  return Object.prototype.hasOwnProperty.call(errors, name) ? errors[name] : undefined;
}
