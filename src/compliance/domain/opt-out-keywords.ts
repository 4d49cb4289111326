/**
 * What an inbound reply asks of the sender's opt-out list (API.md, Compliance). The whole
 * message must be the keyword: case and spaces do not matter ("stop all", " Stop "), but a
 * sentence that merely contains one ("please don't stop") changes nothing.
 */
export type OptOutIntent = 'opt_out' | 'opt_in';

const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const OPT_IN = new Set(['START', 'UNSTOP']);

export function optOutIntent(message: string): OptOutIntent | null {
  const word = message.replace(/\s+/g, '').toUpperCase();
  if (OPT_OUT.has(word)) return 'opt_out';
  if (OPT_IN.has(word)) return 'opt_in';
  return null;
}
