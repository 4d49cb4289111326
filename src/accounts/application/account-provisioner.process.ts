import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection } from '../../shared/projections/projection';
import type { EmailClaimed } from '../domain/account.events';
import type { AccountProvisioning } from './account-provisioning.service';

/**
 * Finishes any sign-up whose process died between claiming the email and opening the
 * wallets. Sign-up does the same steps inline; every step is idempotent, so running them
 * again for a healthy account records nothing.
 */
export function accountProvisioner(provisioning: AccountProvisioning): Projection {
  return {
    name: 'account-provisioner',
    collections: [],
    kind: 'process-manager',
    filter: { eventTypes: ['EmailClaimed'] },
    async apply(recorded: RecordedEvent) {
      const { claimedAt: _claimedAt, ...registration } = (recorded as unknown as EmailClaimed).data;
      await provisioning.provision(registration);
    },
  };
}
