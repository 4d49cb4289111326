import { Command } from '@nestjs/cqrs';
import type { ConsoleSession } from '../console-sessions.service';

export type SignInOutcome =
  | { readonly outcome: 'signed_in'; readonly session: ConsoleSession }
  | { readonly outcome: 'refused' }
  /** The password is right, but the login belongs to no account any more (removed from all). */
  | { readonly outcome: 'no_account' }
  | { readonly outcome: 'throttled'; readonly retryAfterSeconds: number };

/**
 * Sign in to the console from a client address, ending the visitor's previous session (if any)
 * so every sign-in gets a fresh session id.
 */
export class SignIn extends Command<SignInOutcome> {
  constructor(
    readonly email: string,
    readonly password: string,
    readonly address: string,
    readonly previous: ConsoleSession | null,
  ) {
    super();
  }
}
