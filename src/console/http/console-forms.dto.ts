import { applyDecorators } from '@nestjs/common';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * The console's forms and page queries, checked by the same ValidationPipe as the API. They only
 * bound what a browser may send (a form field the size of a novel is refused with a 400 page
 * before anything looks at it); what a field must mean is left to the use case, whose refusal
 * is shown inline next to the form.
 */
const Field = (max: number) => applyDecorators(IsOptional(), IsString(), MaxLength(max));

/** Longest email an address can be (RFC 5321 paths). */
const EMAIL = 254;
/** Longer than any password the service accepts (200), so the use case says why it is refused. */
const PASSWORD = 1024;
/** A console path to return to. */
const PATH = 2048;
/** Longer than the longest message the service sends (10 UCS-2 or GSM-7 segments). */
const MESSAGE = 4096;
const SHORT = 256;
const ID = 128;

export class SignInForm {
  @Field(EMAIL) email?: string;
  @Field(PASSWORD) password?: string;
  @Field(PATH) next?: string;
}

export class SignUpForm {
  @Field(EMAIL) email?: string;
  @Field(PASSWORD) password?: string;
}

export class ForgotPasswordForm {
  @Field(EMAIL) email?: string;
}

/** The token is `<account id>.<43 characters>`: its shape is the use case's to check. */
export class ResetPasswordForm {
  @Field(SHORT) token?: string;
  @Field(PASSWORD) password?: string;
}

export class ResetPasswordPageQuery {
  @Field(SHORT) token?: string;
}

export class StatementPageQuery {
  @Field(SHORT) month?: string;
}

export class SignInPageQuery {
  @Field(PATH) next?: string;
}

export class EnvironmentForm {
  @Field(SHORT) environment?: string;
  @Field(PATH) next?: string;
}

/** The one-time token of a form that acts (FormReplays): its shape is checked where it is used. */
const ONCE = 64;

export class MintKeyForm {
  @Field(ONCE) _once?: string;
  @Field(SHORT) environment?: string;
  @Field(SHORT) name?: string;
  @Field(SHORT) scope?: string;
  /** Up to 50 addresses or CIDRs, one per line or separated by commas. */
  @Field(4096) allowed_ips?: string;
}

export class AccountForm {
  @Field(ID) account?: string;
}

export class InviteMemberForm {
  @Field(ONCE) _once?: string;
  @Field(EMAIL) email?: string;
  @Field(SHORT) role?: string;
}

export class MemberRoleForm {
  @Field(ONCE) _once?: string;
  @Field(SHORT) role?: string;
}

/** The invitation link's token is `<account id>.<43 characters>`: its shape is the use case's to check. */
export class InvitationPageQuery {
  @Field(SHORT) token?: string;
}

export class AcceptInvitationForm {
  @Field(SHORT) token?: string;
  @Field(PASSWORD) password?: string;
}

export class AuditPageQuery {
  @Field(SHORT) action?: string;
  @Field(ID) member?: string;
  @Field(ID) starting_after?: string;
}

export class SendForm {
  @Field(ONCE) _once?: string;
  @Field(SHORT) to?: string;
  @Field(SHORT) sender_id?: string;
  @Field(MESSAGE) message?: string;
  @Field(SHORT) type?: string;
  @Field(SHORT) send_at?: string;
}

/** A form whose only field is its one-time token (a button that acts, such as Cancel). */
export class OnceForm {
  @Field(ONCE) _once?: string;
}

/** A "Send to many" file: up to one batch body (API.md, 2 MiB). */
const FILE = 2 * 1024 * 1024;

export class SendManyUploadForm {
  @Field(FILE) file?: string;
  @Field(SHORT) send_at?: string;
  @Field(SHORT) sender_id?: string;
  @Field(MESSAGE) message?: string;
  @Field(SHORT) type?: string;
  /** Set by the multipart parser when it refused the upload whole (multipart-form.ts). */
  @Field(SHORT) _upload_problem?: string;
}

/** The preview's Send button: the same file again (a hidden field), under a one-time token. */
export class SendManyConfirmForm {
  @Field(ONCE) _once?: string;
  @Field(FILE) csv?: string;
  @Field(SHORT) send_at?: string;
  @Field(SHORT) sender_id?: string;
  @Field(MESSAGE) message?: string;
  @Field(SHORT) type?: string;
}

export class BuyCreditsForm {
  @Field(ONCE) _once?: string;
  @Field(SHORT) package_id?: string;
}

export class MessagesPageQuery {
  @Field(ID) starting_after?: string;
}

export class HistoryPageQuery {
  @Field(SHORT) after?: string;
}

export class CheckoutReturnQuery {
  @Field(ID) checkout_id?: string;
}
