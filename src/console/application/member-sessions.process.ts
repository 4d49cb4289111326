import type {
  MemberRemoved,
  MemberRoleChanged,
  OwnershipTransferred,
} from '../../accounts/domain/account.events';
import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection } from '../../shared/projections/projection';
import type { ConsoleSessions } from './console-sessions.service';

export const MEMBER_SESSIONS_PROCESS = 'member-sessions';

/**
 * Ends a member's console sessions in an account when they are removed from it or their role
 * changes (a hand-over changes two roles), through the same "sessions ended" streams a password
 * reset uses. The role is read on every page anyway, so this makes the change final: whatever page
 * or form the member had open, they sign in again. The end is dated by the event, so a session
 * started after it (signing in again at once) is not ended by a late or repeated run.
 */
export function memberSessionsProcess(sessions: ConsoleSessions): Projection {
  return {
    name: MEMBER_SESSIONS_PROCESS,
    kind: 'process-manager',
    collections: [],
    filter: {
      streamPrefixes: ['account-'],
      eventTypes: ['MemberRemoved', 'MemberRoleChanged', 'OwnershipTransferred'],
    },
    apply(recorded: RecordedEvent, view) {
      const event = recorded as unknown as MemberRemoved | MemberRoleChanged | OwnershipTransferred;
      const at = recorded.recordedAt;
      switch (event.type) {
        case 'MemberRemoved':
          view.afterBatch(() => sessions.endAllOf(event.data.memberId, 'member_removed', at));
          return;
        case 'MemberRoleChanged':
          view.afterBatch(() => sessions.endAllOf(event.data.memberId, 'role_changed', at));
          return;
        case 'OwnershipTransferred':
          view.afterBatch(() => sessions.endAllOf(event.data.memberId, 'role_changed', at));
          view.afterBatch(() => sessions.endAllOf(event.data.previousOwnerId, 'role_changed', at));
          return;
      }
    },
  };
}
