import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { formatWait, plural } from '../../shared/wording';
import { CheckVerification } from '../../verify/application/commands/check-verification.command';
import { StartVerification } from '../../verify/application/commands/start-verification.command';
import { VerificationActivity } from '../../verify/application/queries/verification-activity.query';
import { signedIn } from './console-auth';
import { ConsolePageError, ConsoleRequest, field } from './console-http';
import { ConsolePage, ConsolePages, FormRefusal, Requires } from './console-page';
import { VerificationCheckForm, VerificationTryForm } from './console-verifications.forms';

/** The try-out's last answer, handed to the page it redirects to (once). */
interface TriedVerification {
  readonly id: string;
  readonly to: string;
  readonly status: string;
  readonly testCode: string | null;
  readonly checksLeft: number;
}

const TRY_SLOT = 'verification-try';
/** Distinct from an API client's keys: the console's form token is its Idempotency-Key. */
const CONSOLE_VERIFY_KEY = 'console-verify:';
const LIMIT_WORDS = { number: 'this number', range: 'this number range', wallet: 'this wallet' } as const;

/**
 * The Verifications page: recent verifications (status, checks used, time to approve), the last
 * days (started, approved, conversion, refused by the guard, credits spent) and the guard's
 * refusals, from the verifications read model; and under TEST a try-out that starts a
 * verification and checks a code, through the API's own commands.
 */
@ConsolePages()
export class ConsoleVerificationsController {
  constructor(
    private readonly page: ConsolePage,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('verifications')
  async verificationsPage(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.render(request, reply, {});
  }

  @Post('verifications')
  @Requires('send')
  async tryOut(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: VerificationTryForm,
  ): Promise<void> {
    const { walletId, account, environment } = testOnly(request);
    const input = { to: field(body, 'to'), sender_id: field(body, 'sender_id') || 'MyShop' };
    await this.page.submit(request, reply, body, {
      act: async (token) => {
        const started = await this.commands.execute(
          new StartVerification(
            { walletId, accountId: account.id, environment },
            input,
            `${CONSOLE_VERIFY_KEY}${token}`,
          ),
        );
        this.page.putFlash(request, TRY_SLOT, {
          id: started.verification.id,
          to: started.verification.to,
          status: started.verification.status,
          testCode: started.testCode,
          checksLeft: started.verification.checks_left,
        } satisfies TriedVerification);
        return '/console/verifications#try';
      },
      refused: (refusal) => this.render(request, reply, { tryInput: input, tryError: refusal }, refusal.status),
      shows: ['invalid_request', 'insufficient_credit', 'conflict', 'unprocessable', 'unavailable', 'rate_limit'],
      alreadySent: 'This try-out form was already sent once, so no second code was sent.',
    });
  }

  @Post('verifications/:id/check')
  @Requires('send')
  async tryCheck(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: VerificationCheckForm,
  ): Promise<void> {
    const { walletId, environment } = testOnly(request);
    await this.page.submit(request, reply, body, {
      once: `verification-check:${id}`,
      act: async () => {
        const checked = await this.commands.execute(
          new CheckVerification({ walletId, environment }, id, field(body, 'code')),
        );
        this.page.putFlash(request, TRY_SLOT, {
          id: checked.id,
          to: checked.to,
          status: checked.status,
          testCode: null,
          checksLeft: checked.checks_left,
        } satisfies TriedVerification);
        return '/console/verifications#try';
      },
      refused: (refusal) => this.render(request, reply, { checkError: refusal }, refusal.status),
    });
  }

  private async render(
    request: ConsoleRequest,
    reply: FastifyReply,
    extra: { tryInput?: { to: string; sender_id: string }; tryError?: FormRefusal; checkError?: FormRefusal },
    status = 200,
  ): Promise<void> {
    const { walletId, environment } = signedIn(request);
    const activity = await this.queries.execute(new VerificationActivity({ walletId, environment }));
    const tried = this.page.takeFlash<TriedVerification>(request, TRY_SLOT);
    await this.page.render(
      request,
      reply,
      'verifications',
      {
        title: 'Verifications',
        nav: 'verifications',
        recent: activity.recent.map((v) => ({
          ...v,
          checks: `${v.checksUsed} of ${v.maxChecks}`,
          approvedIn: v.secondsToApprove === null ? '' : formatWait(v.secondsToApprove),
          sendsText: plural(v.sends, 'SMS', 'SMS'),
        })),
        days: activity.days.map((d) => ({
          ...d,
          conversionText: d.conversion === null ? '–' : `${Math.round(d.conversion * 100)}%`,
        })),
        refusals: activity.refusals.map((r) => ({
          ...r,
          because: `too many verifications to ${LIMIT_WORDS[r.limit]} in the last hour`,
          waitText: formatWait(r.retryAfterSeconds),
        })),
        tried,
        tryInput: extra.tryInput ?? { to: '', sender_id: 'MyShop' },
        tryError: extra.tryError ? tryMessage(extra.tryError) : null,
        checkError: extra.checkError?.message ?? null,
      },
      status,
    );
  }
}

/** The try-out's refusal in words (a guard's 429 says what to do). */
function tryMessage(refusal: FormRefusal): string {
  if (refusal.code === 'too_many_verifications') return `${refusal.message}. Try again later.`;
  return refusal.message;
}

/** The try-out runs under TEST only: its code is shown on the page, which LIVE never does. */
function testOnly(request: ConsoleRequest) {
  const visitor = signedIn(request);
  if (visitor.environment !== 'TEST')
    throw new ConsolePageError(
      403,
      'TEST only',
      'The verification try-out runs in the TEST environment only. Switch to Test to try it.',
    );
  return visitor;
}
