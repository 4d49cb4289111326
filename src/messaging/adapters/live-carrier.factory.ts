import { Logger } from '@nestjs/common';
import type { Carrier } from '../ports/carrier.port';
import { SmppCarrier } from './smpp/smpp-carrier.adapter';
import { parseSmppUrl, redactSmppUrl } from './smpp/smpp-url';

/**
 * The seam where LIVE carriers are built from `CARRIER_<NAME>_URL`: smpp:// and smpps:// (TLS)
 * URLs become an SmppCarrier (one bind_transceiver session each). Another scheme would get its
 * adapter here.
 */
export function createLiveCarrier(name: string, url: string): Carrier | null {
  if (/^smpps?:\/\//i.test(url)) {
    return new SmppCarrier(name, parseSmppUrl(url), { logger: new Logger(`carrier:${name}`) });
  }
  throw new Error(`unsupported carrier URL scheme in ${redactSmppUrl(url).replace(/\/\/.*@/, '//***@')}`);
}
