import { parseTemplate } from '../../audiences/domain/template';
import { unwrap } from '../../shared/result';
import { validateCampaignInput } from './campaign-input';
import { campaignMessageId } from '../../messaging/domain/campaign-message-ids';
import { CampaignPlan, messageFor, planRecipient, RecipientTally } from './recipient-plan';

const plan = (message: string, over: Partial<CampaignPlan> = {}): CampaignPlan => ({
  senderId: 'School',
  type: 'promotional',
  template: unwrap(parseTemplate(message)),
  routes: [],
  carriers: new Set(['MTN', 'TELECEL', 'AT']),
  ...over,
});
const member = (over: Partial<Parameters<typeof planRecipient>[0]> = {}) => ({
  phoneNumber: '+233241234567',
  name: 'Ama Mensah',
  fields: { first_name: 'Ama', class: 'JSS 2' } as Record<string, string>,
  optedOut: false,
  ...over,
});

describe('a campaign’s recipients', () => {
  it('gets each member one personalised message, checked as a send to that number', () => {
    expect(planRecipient(member(), plan('Dear {{first_name}}, {{class}} resumes Monday'))).toEqual({
      send: ['+233241234567', 'Ama Mensah', 'Dear Ama, JSS 2 resumes Monday', 'MTN', 'GSM-7', 1],
    });
  });

  it('skips an opted-out number for a promotional campaign only', () => {
    expect(planRecipient(member({ optedOut: true }), plan('Sale!'))).toEqual({ skip: 'opted_out' });
    expect(
      planRecipient(member({ optedOut: true }), plan('Sale!', { type: 'transactional' })),
    ).toHaveProperty('send');
  });

  it('skips a member lacking a field with no fallback; a fallback fills it', () => {
    expect(planRecipient(member({ fields: {} }), plan('Dear {{first_name}}'))).toEqual({
      skip: 'missing_field',
    });
    expect(planRecipient(member({ fields: {} }), plan('Dear {{first_name|Parent}}'))).toMatchObject({
      send: [expect.any(String), 'Ama Mensah', 'Dear Parent', 'MTN', 'GSM-7', 1],
    });
  });

  it('skips as unsendable a number no route or connected carrier reaches, and a text over 10 segments', () => {
    expect(planRecipient(member({ phoneNumber: '+2348031234567' }), plan('Hi'))).toEqual({
      skip: 'unsendable',
    });
    expect(planRecipient(member(), plan('Hi', { carriers: new Set(['AT']) }))).toEqual({
      skip: 'unsendable',
    });
    const long = member({ fields: { note: 'x'.repeat(1600) } });
    expect(planRecipient(long, plan('{{note}}'))).toEqual({ skip: 'unsendable' });
    expect(planRecipient(member({ fields: {} }), plan('{{note|}}'))).toEqual({ skip: 'unsendable' });
  });

  it('counts recipients, credits and skips as it goes', () => {
    const tally = new RecipientTally();
    const p = plan('Dear {{first_name}} ✓'); // UCS-2: still one segment
    tally.add(planRecipient(member(), p));
    tally.add(planRecipient(member({ fields: {} }), p));
    tally.add(planRecipient(member({ optedOut: true }), p));
    expect({ recipients: tally.recipients, credits: tally.credits, skipped: tally.skipped }).toEqual({
      recipients: 1,
      credits: 1,
      skipped: { opted_out: 1, missing_field: 1, duplicate: 0, unsendable: 0 },
    });
  });

  it('turns a listed recipient into its send under the id derived from its place', () => {
    const campaign = {
      campaignId: 'cmp_0000000000000000000001',
      senderId: 'School',
      type: 'transactional' as const,
      sendAt: null,
    };
    expect(messageFor(campaign, ['+233241234567', null, 'Hi', 'MTN', 'GSM-7', 1], 1042)).toEqual({
      messageId: campaignMessageId(campaign.campaignId, 1042),
      to: '+233241234567',
      senderId: 'School',
      message: 'Hi',
      type: 'transactional',
      carrier: 'MTN',
      encoding: 'GSM-7',
      segments: 1,
      credits: 1,
    });
  });
});

describe('a campaign body', () => {
  const now = new Date('2026-12-01T08:00:00Z');
  const body = {
    name: ' Term   reminder ',
    sender_id: 'School',
    type: 'transactional',
    message: 'Hi',
    audience: { groups: ['grp_1'] },
  };
  const refusal = (over: Record<string, unknown>) => {
    const checked = validateCampaignInput({ ...body, ...over }, now);
    return checked.ok ? null : { code: checked.error.code, param: checked.error.param };
  };

  it('reads a valid body', () => {
    expect(validateCampaignInput(body, now)).toEqual({
      ok: true,
      value: {
        name: 'Term reminder',
        senderId: 'School',
        type: 'transactional',
        message: 'Hi',
        templateId: null,
        audience: { groups: ['grp_1'], contacts: [] },
        sendAt: null,
      },
    });
  });

  it('refuses each field in order, naming it', () => {
    expect(refusal({ name: '' })).toEqual({ code: 'parameter_missing', param: 'name' });
    expect(refusal({ name: 'x'.repeat(101) })).toEqual({ code: 'invalid_name', param: 'name' });
    expect(refusal({ sender_id: 'no' })).toMatchObject({ param: 'sender_id' });
    expect(refusal({ type: 'bulk' })).toEqual({ code: 'invalid_type', param: 'type' });
    expect(refusal({ message: undefined })).toEqual({ code: 'parameter_missing', param: 'message' });
    expect(refusal({ template_id: 'tpl_1' })).toEqual({ code: 'parameter_invalid', param: 'template_id' });
    expect(refusal({ audience: undefined })).toEqual({ code: 'parameter_missing', param: 'audience' });
    expect(refusal({ audience: {} })).toEqual({ code: 'parameter_missing', param: 'audience' });
    expect(refusal({ audience: { groups: [1] } })).toEqual({
      code: 'parameter_invalid',
      param: 'audience.groups',
    });
    expect(refusal({ send_at: '2026-11-30T08:00:00Z' })).toEqual({
      code: 'invalid_send_at',
      param: 'send_at',
    });
  });
});
