import { Logger } from '@nestjs/common';
import type { Carrier, CarrierRoutes, Environment } from '../ports/carrier.port';
import { TestCarrierSimulator } from './test-carrier/test-carrier.adapter';

/** Builds the LIVE carrier for `CARRIER_<NAME>_URL`; null when the URL cannot be used. */
export type LiveCarrierFactory = (name: string, url: string) => Carrier | null;

/**
 * CARRIER_ROUTES: under TEST every carrier name goes to the simulator; under LIVE a carrier
 * exists only for each configured `CARRIER_<NAME>_URL` (built by the factory: SMPP today).
 */
export class ConfiguredCarrierRoutes implements CarrierRoutes {
  private readonly live = new Map<string, Carrier>();

  constructor(
    readonly simulator: TestCarrierSimulator,
    carrierUrls: Readonly<Record<string, string>>,
    liveFactory: LiveCarrierFactory,
    logger: Pick<Logger, 'error'> = new Logger('carriers'),
  ) {
    for (const [name, url] of Object.entries(carrierUrls)) {
      try {
        const carrier = liveFactory(name.toUpperCase(), url);
        if (carrier) this.live.set(name.toUpperCase(), carrier);
      } catch (error) {
        // The URL is never logged: it holds the carrier password.
        logger.error(
          `CARRIER_${name}_URL cannot be used (${(error as Error).message}); LIVE sends to ${name} are refused`,
        );
      }
    }
  }

  carrierFor(carrierName: string, environment: Environment): Carrier | null {
    if (environment === 'TEST') return this.simulator.carrier(carrierName);
    return this.live.get(carrierName) ?? null;
  }

  all(): readonly Carrier[] {
    // One simulated carrier starts the shared simulator for every name.
    return [this.simulator.carrier('TEST'), ...this.live.values()];
  }
}
