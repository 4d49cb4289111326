import type { Actor } from '../../shared/actor';
import type { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { WebhookEndpointCreated, WebhookEndpointEvent } from './webhook.events';

export type WebhookEndpointState =
  | { readonly status: 'none' }
  | (WebhookEndpointCreated['data'] & { readonly status: 'enabled' | 'disabled' | 'deleted' });

export const webhookEndpointDecider: Decider<WebhookEndpointState, WebhookEndpointEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'WebhookEndpointCreated':
        return state.status === 'none' ? { ...event.data, status: 'enabled' } : state;
      case 'WebhookEndpointDisabled':
        return state.status === 'enabled' ? { ...state, status: 'disabled' } : state;
      case 'WebhookEndpointDeleted':
        return state.status === 'none' ? state : { ...state, status: 'deleted' };
      default:
        return state;
    }
  },
};

type Decision = Result<WebhookEndpointEvent[], DomainError>;
const missing = () => new DomainError('not_found', 'resource_missing', 'No such webhook endpoint', 'id');

export function create(state: WebhookEndpointState, cmd: WebhookEndpointCreated['data']): Decision {
  if (state.status !== 'none')
    return err(new DomainError('conflict', 'webhook_endpoint_exists', 'The webhook endpoint already exists'));
  return ok([{ type: 'WebhookEndpointCreated', data: cmd }]);
}

/** Deleting is for the owner only: another wallet's endpoint is answered as unknown. */
export function remove(
  state: WebhookEndpointState,
  cmd: { walletId: string; actor?: Actor; now: Date },
): Decision {
  if (state.status === 'none' || state.status === 'deleted' || state.walletId !== cmd.walletId)
    return err(missing());
  return ok([
    {
      type: 'WebhookEndpointDeleted',
      data: { deletedAt: cmd.now.toISOString(), ...(cmd.actor ? { actor: cmd.actor } : {}) },
    },
  ]);
}

/** Idempotent: only an enabled endpoint records the fact. */
export function disable(state: WebhookEndpointState, cmd: { reason: string; now: Date }): Decision {
  if (state.status !== 'enabled') return ok([]);
  return ok([
    { type: 'WebhookEndpointDisabled', data: { reason: cmd.reason, disabledAt: cmd.now.toISOString() } },
  ]);
}
