import type { Actor } from '../../shared/actor';
import { fold } from '../../shared/decider';
import { accountDecider } from './account.decider';
import type { AccountEvent } from './account.events';
import { memberIdFor } from './member-id';
import {
  acceptInvitation,
  cancelInvitation,
  changeRole,
  INVITATION_TTL_MS,
  invite,
  removeMember,
  transferOwnership,
} from './members';

const now = new Date('2026-11-24T10:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const accountId = 'acct_1';
const ownerId = memberIdFor(accountId, 'owner@shop.example');
const registered: AccountEvent = {
  type: 'AccountRegistered',
  data: {
    accountId,
    email: 'owner@shop.example',
    passwordHash: 'h',
    testWalletId: 'wal_t',
    liveWalletId: 'wal_l',
    registeredAt: now.toISOString(),
  },
};
const given = (...events: AccountEvent[]) => fold(accountDecider, events);
const member = (id: string, email: string): Actor => ({ type: 'member', id, email, ip: '203.0.113.9' });
const owner = member(ownerId, 'owner@shop.example');

const invited = (email: string, role: string, tokenHash: string, by: Actor = owner, at = now) => {
  const decision = invite(given(registered), {
    invitationId: `inv_${tokenHash}`,
    email,
    role,
    tokenHash,
    sealedToken: 'sealed',
    actor: by,
    now: at,
  });
  if (!decision.ok) throw decision.error;
  return decision.value[0];
};
const joined = (invitation: AccountEvent, loginId = 'usr_1') => {
  const decision = acceptInvitation(given(registered, invitation), {
    tokenHash: (invitation.data as { tokenHash: string }).tokenHash,
    loginId,
    ip: null,
    now,
  });
  if (!decision.ok) throw decision.error;
  return decision.value[0];
};

describe('members of an account', () => {
  const viewerInvited = invited('viewer@shop.example', 'viewer', 'v');
  const viewerJoined = joined(viewerInvited);
  const viewerId = memberIdFor(accountId, 'viewer@shop.example');
  const adminInvited = invited('admin@shop.example', 'admin', 'a');
  const adminJoined = joined(adminInvited, 'acct_2');
  const adminId = memberIdFor(accountId, 'admin@shop.example');
  const admin = member(adminId, 'admin@shop.example');
  const team = given(registered, viewerInvited, viewerJoined, adminInvited, adminJoined);

  it('makes the first user the owner', () => {
    expect(given(registered).members.get(ownerId)).toEqual({
      memberId: ownerId,
      email: 'owner@shop.example',
      role: 'owner',
    });
  });

  it('invites for 7 days with a role the owner and admins may give', () => {
    expect(viewerInvited).toMatchObject({
      type: 'MemberInvited',
      data: {
        email: 'viewer@shop.example',
        role: 'viewer',
        expiresAt: later(INVITATION_TTL_MS).toISOString(),
      },
    });
    const cmd = { invitationId: 'inv_x', email: 'x@shop.example', tokenHash: 'x', sealedToken: 's', now };
    expect(invite(team, { ...cmd, role: 'owner', actor: owner })).toMatchObject({
      ok: false,
      error: { code: 'invalid_role', param: 'role' },
    });
    expect(invite(team, { ...cmd, role: 'developer', actor: admin }).ok).toBe(true);
    expect(
      invite(team, { ...cmd, role: 'viewer', actor: member(viewerId, 'viewer@shop.example') }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'forbidden', code: 'permission_denied' },
    });
    expect(
      invite(team, { ...cmd, email: 'viewer@shop.example', role: 'viewer', actor: owner }),
    ).toMatchObject({
      ok: false,
      error: { code: 'member_exists' },
    });
  });

  it('joins once, with the invitation’s role; an expired, replaced or canceled link is refused', () => {
    expect(viewerJoined).toMatchObject({
      type: 'MemberJoined',
      data: { memberId: viewerId, role: 'viewer', loginId: 'usr_1' },
    });
    expect(team.members.get(viewerId)?.role).toBe('viewer');
    const accept = (state: ReturnType<typeof given>, tokenHash: string, at = now) =>
      acceptInvitation(state, { tokenHash, loginId: 'usr_1', ip: null, now: at });
    expect(accept(given(registered, viewerInvited, viewerJoined), 'v')).toMatchObject({
      ok: false,
      error: { code: 'invitation_invalid' },
    });
    expect(accept(given(registered, viewerInvited), 'v', later(INVITATION_TTL_MS))).toMatchObject({
      ok: false,
    });
    const again = invited('viewer@shop.example', 'sender', 'v2');
    expect(accept(given(registered, viewerInvited, again), 'v')).toMatchObject({ ok: false });
    expect(accept(given(registered, viewerInvited, again), 'v2')).toMatchObject({ ok: true });
    const canceled = cancelInvitation(given(registered, viewerInvited), {
      invitationId: 'inv_v',
      actor: owner,
      now,
    });
    expect(canceled.ok && canceled.value[0].type).toBe('InvitationCanceled');
    if (canceled.ok)
      expect(accept(given(registered, viewerInvited, ...canceled.value), 'v')).toMatchObject({ ok: false });
  });

  it('lets admins remove members and change roles, but never the owner’s', () => {
    expect(removeMember(team, { memberId: viewerId, actor: admin, now })).toMatchObject({
      ok: true,
      value: [{ type: 'MemberRemoved', data: { memberId: viewerId } }],
    });
    expect(removeMember(team, { memberId: ownerId, actor: admin, now })).toMatchObject({
      ok: false,
      error: { kind: 'forbidden', code: 'owner_cannot_be_removed' },
    });
    expect(changeRole(team, { memberId: ownerId, role: 'viewer', actor: admin, now })).toMatchObject({
      ok: false,
      error: { code: 'owner_role_fixed' },
    });
    expect(changeRole(team, { memberId: viewerId, role: 'sender', actor: admin, now })).toMatchObject({
      ok: true,
      value: [{ type: 'MemberRoleChanged', data: { role: 'sender', previousRole: 'viewer' } }],
    });
    expect(changeRole(team, { memberId: viewerId, role: 'viewer', actor: admin, now })).toEqual({
      ok: true,
      value: [],
    });
    expect(
      removeMember(team, { memberId: adminId, actor: member(viewerId, 'viewer@shop.example'), now }),
    ).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
  });

  it('hands the account over: one owner, the previous one an admin; only the owner may', () => {
    expect(transferOwnership(team, { memberId: viewerId, actor: admin, now })).toMatchObject({
      ok: false,
      error: { code: 'permission_denied' },
    });
    const handed = transferOwnership(team, { memberId: viewerId, actor: owner, now });
    if (!handed.ok) throw handed.error;
    const after = fold(accountDecider, handed.value, team);
    expect([...after.members.values()].filter((m) => m.role === 'owner')).toEqual([
      { memberId: viewerId, email: 'viewer@shop.example', role: 'owner' },
    ]);
    expect(after.members.get(ownerId)?.role).toBe('admin');
    expect(after.ownerId).toBe(viewerId);
    expect(after.email).toBe('viewer@shop.example');
  });
});
