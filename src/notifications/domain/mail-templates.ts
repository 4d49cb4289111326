import { formatCount, formatMoney } from '../../shared/money';

/**
 * What a mail says, as plain data recorded with the mail (`MailQueued`): rendered when it is sent,
 * so the log holds facts and not markup. Secrets (a password reset's token) are recorded sealed
 * and opened only to render (see MailSecrets).
 */
export type MailTemplate =
  | {
      readonly kind: 'low_balance';
      readonly environment: 'TEST' | 'LIVE';
      readonly smsLeft: number;
      readonly threshold: number;
    }
  | {
      readonly kind: 'purchase_receipt';
      readonly environment: 'TEST' | 'LIVE';
      readonly checkoutId: string;
      readonly packageId: string;
      readonly amount: number;
      readonly currency: string;
      readonly sms: number;
      /** The payment provider's transaction reference. */
      readonly reference: string;
      /** Bought by auto top-up rather than in a checkout. */
      readonly automatic: boolean;
      readonly paidAt: string;
    }
  | {
      readonly kind: 'auto_topup_failed';
      readonly environment: 'TEST' | 'LIVE';
      readonly packageId: string;
      readonly reason: string;
      readonly failuresInARow: number;
      /** This failure turned auto top-up off. */
      readonly disabled: boolean;
    }
  | {
      readonly kind: 'sender_id_decided';
      readonly senderId: string;
      readonly verdict: 'approved' | 'rejected';
      readonly reason: string | null;
    }
  | {
      readonly kind: 'password_reset';
      /** The link's token, sealed (MailSecrets): opened only to render the mail. */
      readonly sealedToken: string;
      readonly expiresAt: string;
    }
  | {
      readonly kind: 'team_invitation';
      readonly inviterEmail: string;
      readonly role: string;
      /** The one-time sign-up link, sealed like a reset token. */
      readonly sealedToken: string;
      readonly expiresAt: string;
    };

export type MailKind = MailTemplate['kind'];

export interface MailContent {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** What rendering needs besides the template: where the console is, and the opened secrets. */
export interface RenderContext {
  /** PUBLIC_URL, without a trailing slash. */
  readonly publicUrl: string;
  /** Opens a sealed token (only the templates with one call it). */
  readonly open: (sealed: string) => string;
}

const SERVICE = 'SMS Wallet';

/** Paragraphs of plain text, each also one HTML paragraph; a link is its own paragraph. */
type Block = string | { readonly link: string; readonly label: string };

function compose(subject: string, blocks: readonly Block[]): MailContent {
  const text = [
    ...blocks.map((b) => (typeof b === 'string' ? b : `${b.label}: ${b.link}`)),
    `— ${SERVICE}`,
  ].join('\n\n');
  const body = blocks
    .map((b) =>
      typeof b === 'string'
        ? `<p>${escapeHtml(b)}</p>`
        : `<p><a href="${escapeHtml(b.link)}">${escapeHtml(b.label)}</a></p>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a; max-width: 36rem">
${body}
<p style="color: #555">— ${SERVICE}</p>
</body></html>
`;
  return { subject, text: `${text}\n`, html };
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;
/** "25 Nov 2026, 14:05 GMT": Ghana time is GMT, as the console shows times. */
function formatTime(iso: string): string {
  const d = new Date(iso);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hh}:${mm} GMT`;
}

/** Renders a mail: pure, the same words as the console's pages. */
export function renderMail(template: MailTemplate, context: RenderContext): MailContent {
  const console = `${context.publicUrl}/console`;
  switch (template.kind) {
    case 'low_balance':
      return compose(`Your ${template.environment} credits are running low`, [
        `Your ${template.environment} wallet has ${plural(template.smsLeft, 'credit')} left, at or below your low-balance alert of ${plural(template.threshold, 'credit')}.`,
        'Messages that need more credits than are left are refused with insufficient_credit. Buy credits before you run out.',
        { link: `${console}/billing`, label: 'Buy credits' },
        `We will tell you again once the wallet has gone back above ${formatCount(template.threshold)} and falls again.`,
      ]);
    case 'purchase_receipt':
      return compose(
        `Receipt: ${plural(template.sms, 'SMS credit')} (${formatMoney(template.amount, template.currency)})`,
        [
          template.automatic
            ? `Auto top-up bought ${plural(template.sms, 'SMS credit')} for your ${template.environment} wallet with your saved card.`
            : `Thank you for your purchase of ${plural(template.sms, 'SMS credit')} for your ${template.environment} wallet.`,
          `Amount: ${formatMoney(template.amount, template.currency)}`,
          `Credits: ${formatCount(template.sms)} (package ${template.packageId})`,
          `Checkout: ${template.checkoutId}`,
          `Payment reference: ${template.reference}`,
          `Paid: ${formatTime(template.paidAt)}`,
          { link: `${console}/statement`, label: 'Statement' },
        ],
      );
    case 'auto_topup_failed':
      return compose(template.disabled ? 'Auto top-up failed and is now off' : 'Auto top-up failed', [
        `We could not charge your saved card for package ${template.packageId} on your ${template.environment} wallet: ${template.reason}.`,
        template.disabled
          ? `That is ${plural(template.failuresInARow, 'failure')} in a row, so auto top-up is now off. Turn it on again once the card works.`
          : `${plural(template.failuresInARow, 'failure')} in a row; after 3 auto top-up turns itself off.`,
        { link: `${console}/billing`, label: 'Buy credits' },
      ]);
    case 'sender_id_decided':
      return template.verdict === 'approved'
        ? compose(`Sender ID ${template.senderId} approved`, [
            `Your sender ID ${template.senderId} is approved: LIVE messages may now use it.`,
            { link: `${console}/compliance`, label: 'Compliance' },
          ])
        : compose(`Sender ID ${template.senderId} rejected`, [
            `Your sender ID ${template.senderId} was rejected${template.reason ? `: ${template.reason}` : '.'}`,
            'You may request another one on the Compliance page.',
            { link: `${console}/compliance`, label: 'Compliance' },
          ]);
    case 'password_reset': {
      const link = `${console}/reset-password?token=${encodeURIComponent(context.open(template.sealedToken))}`;
      return compose('Reset your password', [
        'Someone asked to reset the password of your console account. If it was you, choose a new password with this link. It works once, until ' +
          `${formatTime(template.expiresAt)} (30 minutes).`,
        { link, label: 'Choose a new password' },
        'Setting a new password signs you out everywhere. If you did not ask for this, ignore this mail: your password stays as it is.',
      ]);
    }
    case 'team_invitation': {
      const link = `${console}/invitations?token=${encodeURIComponent(context.open(template.sealedToken))}`;
      return compose(`${template.inviterEmail} invited you to their ${SERVICE} console`, [
        `${template.inviterEmail} invited you to join their account as ${template.role}.`,
        `Accept the invitation with this link. It works once, until ${formatTime(template.expiresAt)} (7 days).`,
        { link, label: 'Accept the invitation' },
        'If you did not expect this, ignore this mail.',
      ]);
    }
  }
}
