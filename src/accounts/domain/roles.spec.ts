import { PERMISSIONS, Permission, Role, ROLES, roleCan } from './roles';

/** API.md's table of roles, row by row. */
const MAY: Record<Role, Permission[]> = {
  viewer: ['read'],
  sender: ['read', 'send'],
  developer: ['read', 'send', 'develop'],
  billing: ['read', 'billing'],
  admin: ['read', 'send', 'develop', 'billing', 'manage_members'],
  owner: ['read', 'send', 'develop', 'billing', 'manage_members', 'own'],
};

describe('roles', () => {
  it.each(ROLES.flatMap((role) => PERMISSIONS.map((permission) => [role, permission] as const)))(
    '%s may %s exactly as API.md says',
    (role, permission) => {
      expect(roleCan(role, permission)).toBe(MAY[role].includes(permission));
    },
  );

  it('billing cannot send and developers cannot buy', () => {
    expect(roleCan('billing', 'send')).toBe(false);
    expect(roleCan('developer', 'billing')).toBe(false);
  });
});
