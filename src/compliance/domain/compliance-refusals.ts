import { DomainError } from '../../shared/domain-error';

/** API.md, Compliance: a LIVE send whose sender ID the carriers have not registered for the account. */
export const senderIdNotApproved = (senderId: string) =>
  new DomainError(
    'unprocessable',
    'sender_id_not_approved',
    `Sender ID ${senderId} is not approved for LIVE messages on this account: request it with POST /v1/sender_ids; nothing was reserved`,
    'sender_id',
  );

/** API.md, Compliance: a promotional send to a recipient who replied STOP (or was added by hand). */
export const recipientOptedOut = (phoneNumber: string) =>
  new DomainError(
    'unprocessable',
    'recipient_opted_out',
    `${phoneNumber} opted out of this account's promotional messages; transactional messages still go`,
    'to',
  );
