import {
  validateSendAt,
  validateSenderIdField,
  validateTypeField,
  type MessageType,
} from '../../messaging/domain/message-input';
import { invalid, type DomainError } from '../../shared/domain-error';
import { err, ok, type Result } from '../../shared/result';
import type { CampaignAudience } from './campaign.events';

export const MAX_CAMPAIGN_NAME = 100;
export const MAX_AUDIENCE_GROUPS = 100;
export const MAX_AUDIENCE_CONTACTS = 1000;

/** A campaign body as it arrived (the DTO checked the wire types only). */
export interface CampaignInput {
  readonly name?: unknown;
  readonly sender_id?: unknown;
  readonly type?: unknown;
  readonly message?: unknown;
  readonly template_id?: unknown;
  readonly audience?: unknown;
  readonly send_at?: unknown;
}

export interface ValidCampaign {
  readonly name: string;
  readonly senderId: string;
  readonly type: MessageType;
  /** Exactly one of them: the campaign's own text (placeholders allowed), or a saved template. */
  readonly message: string | null;
  readonly templateId: string | null;
  readonly audience: CampaignAudience;
  readonly sendAt: string | null;
}

const present = (value: unknown) => value !== undefined && value !== null;

function idList(value: unknown, param: string, max: number): Result<string[], DomainError> {
  if (!present(value)) return ok([]);
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string'))
    return err(invalid('parameter_invalid', `${param} must be a list of ids`, param));
  if (value.length > max)
    return err(invalid('parameter_invalid', `${param} names at most ${max} ids`, param));
  return ok(value as string[]);
}

/**
 * Checks a campaign body, field by field in API.md's order, and answers the first refusal. What
 * needs the stores (the template, the groups and contacts, the sender ID's approval) comes after.
 */
export function validateCampaignInput(input: CampaignInput, now: Date): Result<ValidCampaign, DomainError> {
  if (typeof input.name !== 'string' || input.name.trim() === '')
    return err(invalid('parameter_missing', 'name is required', 'name'));
  const name = input.name.trim().replace(/\s+/g, ' ');
  if ([...name].length > MAX_CAMPAIGN_NAME)
    return err(invalid('invalid_name', `name must be at most ${MAX_CAMPAIGN_NAME} characters`, 'name'));
  const sender = validateSenderIdField(input.sender_id);
  if (!sender.ok) return sender;
  const type = validateTypeField(input.type);
  if (!type.ok) return type;
  if (present(input.message) && present(input.template_id))
    return err(invalid('parameter_invalid', 'Give message or template_id, not both', 'template_id'));
  if (!present(input.message) && !present(input.template_id))
    return err(invalid('parameter_missing', 'message (or template_id) is required', 'message'));
  if (present(input.message) && typeof input.message !== 'string')
    return err(invalid('parameter_invalid', 'message must be a string', 'message'));
  if (present(input.template_id) && typeof input.template_id !== 'string')
    return err(invalid('parameter_invalid', 'template_id must be a string', 'template_id'));
  const audience = input.audience;
  if (!present(audience)) return err(invalid('parameter_missing', 'audience is required', 'audience'));
  if (typeof audience !== 'object' || Array.isArray(audience))
    return err(
      invalid('parameter_invalid', 'audience must be an object with groups and/or contacts', 'audience'),
    );
  const { groups: g, contacts: c } = audience as { groups?: unknown; contacts?: unknown };
  const groups = idList(g, 'audience.groups', MAX_AUDIENCE_GROUPS);
  if (!groups.ok) return groups;
  const contacts = idList(c, 'audience.contacts', MAX_AUDIENCE_CONTACTS);
  if (!contacts.ok) return contacts;
  if (groups.value.length + contacts.value.length === 0)
    return err(invalid('parameter_missing', 'audience must name at least one group or contact', 'audience'));
  const sendAt = validateSendAt(input.send_at, now);
  if (!sendAt.ok) return sendAt;
  return ok({
    name,
    senderId: sender.value,
    type: type.value,
    message: present(input.message) ? (input.message as string) : null,
    templateId: present(input.template_id) ? (input.template_id as string) : null,
    audience: { groups: groups.value, contacts: contacts.value },
    sendAt: sendAt.value,
  });
}
