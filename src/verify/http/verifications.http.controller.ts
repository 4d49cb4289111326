import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { IdempotencyKeyHeader } from '../../messaging/http/idempotency-key.header';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { CancelVerification } from '../application/commands/cancel-verification.command';
import { CheckVerification } from '../application/commands/check-verification.command';
import { ResendVerification } from '../application/commands/resend-verification.command';
import { StartVerification } from '../application/commands/start-verification.command';
import { VerificationById } from '../application/queries/verification-by-id.query';
import { VerificationsPage } from '../application/queries/verifications-page.query';
import type { VerificationAnswer, VerifyCaller } from '../application/verification-caller';
import type { ApiVerification } from '../domain/verification-object';
import {
  CheckVerificationDto,
  ListVerificationsQuery,
  StartVerificationDto,
  VerificationListResponse,
  VerificationResponse,
  VerificationWithTestCodeResponse,
} from './verification.dto';

const callerOf = (p: Principal): VerifyCaller => ({
  walletId: p.walletId,
  accountId: p.accountId,
  environment: p.environment,
});
const scopeOf = (p: Principal) => ({ walletId: p.walletId, environment: p.environment });

/** The verification, and under TEST its code (`test_code`); never a code under LIVE. */
const withTestCode = ({ verification, testCode }: VerificationAnswer<ApiVerification>) =>
  testCode === null ? verification : { ...verification, test_code: testCode };

/** What the SMS itself can be refused with, as for a send (API.md). */
const SMS_REFUSALS = [
  'invalid_phone_number',
  'unsupported_destination',
  'invalid_sender_id',
  'message_too_long',
  'carrier_unavailable',
];

@ApiTags('verify')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/verifications')
export class VerificationsHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Start a verification: a one-time code to `to` by SMS (status pending). The SMS is an ordinary message, paid only if DELIVERED, whose text reads with the code masked',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'As for sends: one verification per key per wallet, kept 24 h; a replay answers with Idempotent-Replayed: true',
  })
  @ApiOkResponse({ type: VerificationWithTestCodeResponse })
  @ApiErrors(
    {
      400: [
        'invalid_message',
        'invalid_code_length',
        'invalid_expires_in',
        'invalid_max_checks',
        ...SMS_REFUSALS,
        'invalid_idempotency_key',
      ],
      402: ['insufficient_credit'],
      422: ['sender_id_not_approved', 'idempotency_key_reused'],
      429: ['too_many_verifications (Retry-After)'],
    },
    { body: true },
  )
  async start(
    @CurrentPrincipal() principal: Principal,
    @Body() body: StartVerificationDto,
    @IdempotencyKeyHeader() key: string | null,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const answer = await this.commands.execute(new StartVerification(callerOf(principal), body, key));
    if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
    return withTestCode(answer);
  }

  @Post(':id/check')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Check a code: approved (right, in time), pending (wrong: checks_left one less), failed (the last check was wrong) or expired (past expires_at)',
  })
  @ApiOkResponse({ type: VerificationResponse })
  @ApiErrors(
    { 400: ['invalid_code'], 404: ['resource_missing'], 409: ['verification_closed'] },
    { body: true },
  )
  check(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: CheckVerificationDto,
  ) {
    return this.commands.execute(new CheckVerification(scopeOf(principal), id, body.code));
  }

  @Post(':id/resend')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'A new code by a new SMS: the previous code stops working and expires_at starts again; at least 30 s apart, at most 5 sends',
  })
  @ApiOkResponse({ type: VerificationWithTestCodeResponse })
  @ApiErrors({
    400: SMS_REFUSALS,
    402: ['insufficient_credit'],
    404: ['resource_missing'],
    409: ['verification_closed', 'max_sends_reached'],
    422: ['sender_id_not_approved'],
    429: ['resend_too_soon (Retry-After)'],
  })
  async resend(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return withTestCode(await this.commands.execute(new ResendVerification(callerOf(principal), id)));
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a pending verification: canceled, its code no longer works' })
  @ApiOkResponse({ type: VerificationResponse })
  @ApiErrors({ 404: ['resource_missing'], 409: ['verification_closed'] })
  cancel(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.commands.execute(new CancelVerification(scopeOf(principal), id));
  }

  @Get()
  @ApiOperation({ summary: "The wallet's verifications, newest first" })
  @ApiOkResponse({ type: VerificationListResponse })
  @ApiErrors({ 400: ['invalid_limit'], 404: ['resource_missing (starting_after)'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListVerificationsQuery) {
    return this.queries.execute(
      new VerificationsPage(scopeOf(principal), query.limit ?? 20, query.starting_after),
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'One verification as it reads now (a pending one past expires_at reads expired)' })
  @ApiOkResponse({ type: VerificationResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.queries.execute(new VerificationById(scopeOf(principal), id));
  }
}
