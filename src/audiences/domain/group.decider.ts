import type { Decider } from '../../shared/decider';
import { DomainError, invalid, notFound } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { GroupEvent } from './audience.events';

export const MAX_GROUP_NAME = 100;

export interface Group {
  readonly groupId: string | null;
  readonly walletId: string | null;
  readonly name: string | null;
  readonly deleted: boolean;
}

export const groupDecider: Decider<Group, GroupEvent> = {
  initialState: () => ({ groupId: null, walletId: null, name: null, deleted: false }),
  evolve(state, event) {
    if (event.type === 'GroupCreated')
      return {
        groupId: event.data.groupId,
        walletId: event.data.walletId,
        name: event.data.name,
        deleted: false,
      };
    return { ...state, deleted: true };
  },
};

/** A group of this wallet that was not deleted; any other is not found. */
export const groupIsLiveIn = (state: Group, walletId: string): boolean =>
  state.groupId !== null && !state.deleted && state.walletId === walletId;

export const groupMissing = (param?: string) => notFound('group', param);

type Decision = Result<GroupEvent[], DomainError>;

export function groupName(value: unknown): Result<string, DomainError> {
  const name = typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : '';
  if (name === '') return err(invalid('invalid_name', 'name is required', 'name'));
  if ([...name].length > MAX_GROUP_NAME)
    return err(invalid('invalid_name', `name must be at most ${MAX_GROUP_NAME} characters`, 'name'));
  return ok(name);
}

export function createGroup(
  state: Group,
  cmd: { groupId: string; walletId: string; name: string; now: Date },
): Decision {
  if (state.groupId !== null) return ok([]);
  return ok([
    {
      type: 'GroupCreated',
      data: {
        groupId: cmd.groupId,
        walletId: cmd.walletId,
        name: cmd.name,
        createdAt: cmd.now.toISOString(),
      },
    },
  ]);
}

export function deleteGroup(state: Group, cmd: { walletId: string; now: Date }): Decision {
  if (!groupIsLiveIn(state, cmd.walletId)) return err(groupMissing());
  return ok([
    {
      type: 'GroupDeleted',
      data: { groupId: state.groupId as string, walletId: cmd.walletId, deletedAt: cmd.now.toISOString() },
    },
  ]);
}
