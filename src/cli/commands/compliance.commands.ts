import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AssignNumber } from '../../compliance/application/commands/assign-number.command';
import { DecideSenderId } from '../../compliance/application/commands/decide-sender-id.command';
import {
  AssignedNumbers,
  SenderIdRequests,
  UnassignedInboundMessages,
} from '../../compliance/application/queries/compliance-lists.query';
import { SENDER_ID_STATUSES, SenderIdStatus } from '../../compliance/domain/sender-id.decider';
import { required } from '../cli-args';
import type { CliCommand } from './cli-command';

/**
 * `sender-ids:list [--status pending] [--limit 100] [--after CURSOR]`: every account's sender IDs
 * by status, oldest request first, a page at a time: `has_more` and `next_after` (pass it as
 * `--after`) continue the list, so the newest pending request is always reachable.
 */
export const senderIdsList: CliCommand = {
  name: 'sender-ids:list',
  usage:
    'sender-ids:list [--status pending|approved|rejected] [--limit 1-1000, default 100] [--after NEXT_AFTER]',
  options: ['status', 'limit', 'after'],
  async run(app, options) {
    const status = options.status;
    if (status !== undefined && !(SENDER_ID_STATUSES as readonly string[]).includes(status))
      throw new Error(`--status must be one of ${SENDER_ID_STATUSES.join(', ')}`);
    const limit = Number(options.limit ?? 100);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error('--limit must be 1 to 1000');
    const page = await app
      .get(QueryBus)
      .execute(new SenderIdRequests(status as SenderIdStatus | undefined, limit, options.after));
    return { output: page };
  },
};

/** `sender-ids:approve --email E --sender-id S`: LIVE sends may carry it from the next one on. */
export const senderIdsApprove: CliCommand = {
  name: 'sender-ids:approve',
  usage: 'sender-ids:approve --email E --sender-id S',
  options: ['email', 'sender-id'],
  async run(app, options) {
    const decided = await app.get(CommandBus).execute(
      new DecideSenderId(required(options, 'email'), required(options, 'sender-id'), {
        verdict: 'approve',
      }),
    );
    return { output: { approved: decided } };
  },
};

/** `sender-ids:reject --email E --sender-id S --reason "…"`: the merchant sees the reason. */
export const senderIdsReject: CliCommand = {
  name: 'sender-ids:reject',
  usage: 'sender-ids:reject --email E --sender-id S --reason "…"',
  options: ['email', 'sender-id', 'reason'],
  async run(app, options) {
    const decided = await app.get(CommandBus).execute(
      new DecideSenderId(required(options, 'email'), required(options, 'sender-id'), {
        verdict: 'reject',
        reason: required(options, 'reason'),
      }),
    );
    return { output: { rejected: decided } };
  },
};

/** `numbers:assign --number +233… --email E`: its inbound messages go to that account from now on. */
export const numbersAssign: CliCommand = {
  name: 'numbers:assign',
  usage: 'numbers:assign --number +233…|SHORTCODE --email E',
  options: ['number', 'email'],
  async run(app, options) {
    const assigned = await app
      .get(CommandBus)
      .execute(new AssignNumber(required(options, 'number'), required(options, 'email')));
    return { output: { assigned } };
  },
};

/** `numbers:list`: the numbers assigned to accounts. */
export const numbersList: CliCommand = {
  name: 'numbers:list',
  usage: 'numbers:list',
  options: [],
  async run(app) {
    return { output: { numbers: await app.get(QueryBus).execute(new AssignedNumbers()) } };
  },
};

/** `inbound:unassigned [--limit 100]`: messages to numbers no account has, newest first. */
export const inboundUnassigned: CliCommand = {
  name: 'inbound:unassigned',
  usage: 'inbound:unassigned [--limit 100]',
  options: ['limit'],
  async run(app, options) {
    const limit = Number(options.limit ?? 100);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error('--limit must be 1 to 1000');
    return {
      output: { inbound_messages: await app.get(QueryBus).execute(new UnassignedInboundMessages(limit)) },
    };
  },
};
