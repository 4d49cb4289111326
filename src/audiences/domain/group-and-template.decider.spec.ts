import { fold } from '../../shared/decider';
import { createGroup, deleteGroup, groupDecider, groupIsLiveIn, groupName } from './group.decider';
import { createTemplate, deleteTemplate, templateDecider, templateIsLiveIn } from './template.decider';

const now = new Date('2026-11-24T10:00:00Z');

describe('group decider', () => {
  it('creates a group once and deletes it once, for its own wallet only', () => {
    const created = createGroup(groupDecider.initialState(), {
      groupId: 'grp_1',
      walletId: 'wal_1',
      name: 'JSS 2',
      now,
    });
    if (!created.ok) throw created.error;
    const group = fold(groupDecider, created.value);
    expect(groupIsLiveIn(group, 'wal_1')).toBe(true);
    expect(createGroup(group, { groupId: 'grp_1', walletId: 'wal_1', name: 'x', now })).toEqual({
      ok: true,
      value: [],
    });
    expect(deleteGroup(group, { walletId: 'wal_2', now })).toMatchObject({
      ok: false,
      error: { code: 'resource_missing' },
    });
    const deleted = deleteGroup(group, { walletId: 'wal_1', now });
    if (!deleted.ok) throw deleted.error;
    const gone = fold(groupDecider, deleted.value, group);
    expect(groupIsLiveIn(gone, 'wal_1')).toBe(false);
    expect(deleteGroup(gone, { walletId: 'wal_1', now }).ok).toBe(false);
  });

  it('names a group with 1 to 100 characters', () => {
    expect(groupName('  JSS   2 ')).toEqual({ ok: true, value: 'JSS 2' });
    expect(groupName(' ')).toMatchObject({ ok: false, error: { code: 'invalid_name', param: 'name' } });
    expect(groupName('x'.repeat(101)).ok).toBe(false);
  });
});

describe('template decider', () => {
  it('keeps the message and its placeholders, and refuses a bad brace', () => {
    const created = createTemplate(templateDecider.initialState(), {
      templateId: 'tpl_1',
      walletId: 'wal_1',
      name: ' Reminder ',
      message: 'Dear {{first_name|Parent}}, {{class}} resumes',
      now,
    });
    expect(created).toMatchObject({
      ok: true,
      value: [{ type: 'TemplateCreated', data: { name: 'Reminder', placeholders: ['first_name', 'class'] } }],
    });
    expect(
      createTemplate(templateDecider.initialState(), {
        templateId: 'tpl_2',
        walletId: 'wal_1',
        name: 'x',
        message: '{oops}',
        now,
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_template' } });
    if (!created.ok) throw created.error;
    const template = fold(templateDecider, created.value);
    expect(templateIsLiveIn(template, 'wal_1')).toBe(true);
    const deleted = deleteTemplate(template, { walletId: 'wal_1', now });
    if (!deleted.ok) throw deleted.error;
    expect(templateIsLiveIn(fold(templateDecider, deleted.value, template), 'wal_1')).toBe(false);
  });
});
