import { escapeHtml, renderMail, type MailTemplate } from './mail-templates';

const context = { publicUrl: 'https://sms.example.com', open: (sealed: string) => `opened(${sealed})` };

describe('mail templates', () => {
  it('low balance: the credits left, the threshold and where to buy, in text and HTML', () => {
    const mail = renderMail(
      { kind: 'low_balance', environment: 'LIVE', smsLeft: 480, threshold: 500 },
      context,
    );
    expect(mail.subject).toBe('Your LIVE credits are running low');
    expect(mail.text).toContain(
      'Your LIVE wallet has 480 credits left, at or below your low-balance alert of 500 credits.',
    );
    expect(mail.text).toContain('Buy credits: https://sms.example.com/console/billing');
    expect(mail.html).toContain('<a href="https://sms.example.com/console/billing">Buy credits</a>');
  });

  it('receipt: amount, currency, SMS and reference, for a checkout or an auto top-up', () => {
    const template: MailTemplate = {
      kind: 'purchase_receipt',
      environment: 'LIVE',
      checkoutId: 'chk_1',
      packageId: 'pkg_starter',
      amount: 500000,
      currency: 'GHS',
      sms: 20000,
      reference: 'ref_1',
      automatic: false,
      paidAt: '2026-11-25T14:05:00.000Z',
    };
    const mail = renderMail(template, context);
    expect(mail.subject).toBe('Receipt: 20,000 SMS credits (GHS 5,000.00)');
    for (const line of [
      'Amount: GHS 5,000.00',
      'Credits: 20,000 (package pkg_starter)',
      'Checkout: chk_1',
      'Payment reference: ref_1',
      'Paid: 25 Nov 2026, 14:05 GMT',
    ])
      expect(mail.text).toContain(line);
    expect(renderMail({ ...template, automatic: true }, context).text).toContain(
      'Auto top-up bought 20,000 SMS credits',
    );
  });

  it('auto top-up failed: says why, and whether it is now off', () => {
    const base = {
      kind: 'auto_topup_failed',
      environment: 'LIVE',
      packageId: 'pkg_starter',
      reason: 'Declined',
    } as const;
    expect(renderMail({ ...base, failuresInARow: 1, disabled: false }, context).text).toContain(
      '1 failure in a row; after 3 auto top-up turns itself off.',
    );
    const off = renderMail({ ...base, failuresInARow: 3, disabled: true }, context);
    expect(off.subject).toBe('Auto top-up failed and is now off');
    expect(off.text).toContain('That is 3 failures in a row, so auto top-up is now off.');
  });

  it('sender ID decided: approved, or rejected with the reason', () => {
    expect(
      renderMail(
        { kind: 'sender_id_decided', senderId: 'MyShop', verdict: 'approved', reason: null },
        context,
      ).subject,
    ).toBe('Sender ID MyShop approved');
    expect(
      renderMail(
        { kind: 'sender_id_decided', senderId: 'MyShop', verdict: 'rejected', reason: 'brand not shown' },
        context,
      ).text,
    ).toContain('Your sender ID MyShop was rejected: brand not shown');
  });

  it('password reset: the link carries the opened token, and the mail says how long it works', () => {
    const mail = renderMail(
      { kind: 'password_reset', sealedToken: 'v1.x', expiresAt: '2026-11-25T10:30:00.000Z' },
      context,
    );
    expect(mail.text).toContain('https://sms.example.com/console/reset-password?token=opened(v1.x)');
    expect(mail.text).toContain('until 25 Nov 2026, 10:30 GMT (30 minutes)');
    expect(mail.html).toContain('href="https://sms.example.com/console/reset-password?token=opened(v1.x)"');
  });

  it('team invitation: who invited, as what, and the one-time link (ready for the teams issue)', () => {
    const mail = renderMail(
      {
        kind: 'team_invitation',
        inviterEmail: 'owner@shop.example',
        role: 'billing',
        sealedToken: 'v1.y',
        expiresAt: '2026-12-02T10:00:00.000Z',
      },
      context,
    );
    expect(mail.subject).toBe('owner@shop.example invited you to their SMS Wallet console');
    expect(mail.text).toContain('join their account as billing');
    expect(mail.text).toContain('https://sms.example.com/console/invitations?token=opened(v1.y)');
    expect(mail.text).toContain('until 2 Dec 2026, 10:00 GMT (7 days)');
  });

  it('HTML never carries markup from the data', () => {
    const mail = renderMail(
      {
        kind: 'sender_id_decided',
        senderId: 'MyShop',
        verdict: 'rejected',
        reason: '<script>alert(1)</script>',
      },
      context,
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain(escapeHtml('<script>alert(1)</script>'));
  });
});
