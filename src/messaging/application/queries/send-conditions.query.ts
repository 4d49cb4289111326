import { Query } from '@nestjs/cqrs';
import type { Route } from '../../domain/routing';
import type { SendContext } from '../send-pipeline.service';

export interface SendConditionsView {
  /** The operator's routes, beside the built-in ones (validateSendInput takes them). */
  readonly routes: readonly Route[];
  /** The carriers this environment has a connection to: a message to another is not sent. */
  readonly carriers: readonly string[];
}

/**
 * What the messages of a campaign are checked against before anything is held: the sender ID
 * (a LIVE one must be approved for the account: 422 sender_id_not_approved), the routes and the
 * carriers with a connection in the environment.
 */
export class SendConditions extends Query<SendConditionsView> {
  constructor(
    readonly sender: Extract<SendContext, { mode: 'wallet' }>,
    readonly senderId: string,
  ) {
    super();
  }
}
