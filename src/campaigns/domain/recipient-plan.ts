import { renderTemplate, type ParsedTemplate, type TemplateContact } from '../../audiences/domain/template';
import { validateSendInput, type MessageType, type ValidSend } from '../../messaging/domain/message-input';
import type { Route } from '../../messaging/domain/routing';
import { campaignMessageId } from '../../messaging/domain/campaign-message-ids';
import { CHUNK_SIZE, RecipientRow, Skipped } from './campaign.events';

/** What every recipient of one campaign shares. */
export interface CampaignPlan {
  readonly senderId: string;
  readonly type: MessageType;
  readonly template: ParsedTemplate;
  /** The operator's routes (beside the built-in ones). */
  readonly routes: readonly Route[];
  /** Carriers with a connection in the campaign's environment. */
  readonly carriers: ReadonlySet<string>;
}

/** A member of the audience as the planner sees it (audiences' AudienceMember). */
export interface Member extends TemplateContact {
  readonly optedOut: boolean;
}

export type Planned =
  { readonly send: RecipientRow } | { readonly skip: Exclude<keyof Skipped, 'duplicate'> };

/**
 * One member's fate, by the rules of API.md: a promotional campaign skips an opted-out number;
 * a member lacking a placeholder's value (and its fallback) is skipped; the personalised text is
 * then checked exactly as a single send to that number would be (route, segments), and a member
 * the send path would refuse is skipped as `unsendable` rather than refusing the whole campaign.
 */
export function planRecipient(member: Member, plan: CampaignPlan): Planned {
  if (plan.type === 'promotional' && member.optedOut) return { skip: 'opted_out' };
  const rendered = renderTemplate(plan.template, member);
  if (rendered.missing.length > 0) return { skip: 'missing_field' };
  const valid = validateSendInput(
    { to: member.phoneNumber, sender_id: plan.senderId, message: rendered.text, type: plan.type },
    plan.routes,
  );
  if (!valid.ok || !plan.carriers.has(valid.value.carrier)) return { skip: 'unsendable' };
  const v = valid.value;
  return { send: [v.to, member.name, v.message, v.carrier, v.encoding, v.segments] };
}

/** Counts what a campaign's listing found, as it goes: bounded, whatever the audience's size. */
export class RecipientTally {
  recipients = 0;
  credits = 0;
  readonly skipped: { -readonly [K in keyof Skipped]: number } = {
    opted_out: 0,
    missing_field: 0,
    duplicate: 0,
    unsendable: 0,
  };

  add(planned: Planned): void {
    if ('skip' in planned) this.skipped[planned.skip]++;
    else {
      this.recipients++;
      this.credits += planned.send[5];
    }
  }
}

/** The list's place of a chunk's `index`th row: chunks are CHUNK_SIZE long, the last one shorter. */
export const placeOf = (chunk: number, index: number) => chunk * CHUNK_SIZE + index;

export const chunksFor = (recipients: number) => Math.ceil(recipients / CHUNK_SIZE);

/** The message a listed recipient gets: a send the planner already checked, under its derived id. */
export function messageFor(
  campaign: { campaignId: string; senderId: string; type: MessageType; sendAt: string | null },
  row: RecipientRow,
  place: number,
): ValidSend & { readonly messageId: string } {
  const [to, , text, carrier, encoding, segments] = row;
  return {
    messageId: campaignMessageId(campaign.campaignId, place),
    to,
    senderId: campaign.senderId,
    message: text,
    type: campaign.type,
    carrier,
    encoding,
    segments,
    credits: segments,
    ...(campaign.sendAt ? { sendAt: campaign.sendAt } : {}),
  };
}
