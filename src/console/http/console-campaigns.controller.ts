import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { SendBatch } from '../../messaging/application/commands/send-batch.command';
import { BatchById } from '../../messaging/application/queries/batch-by-id.query';
import { BatchQuote, BatchQuoteView } from '../../messaging/application/queries/batch-quote.query';
import type { BatchInput } from '../../messaging/domain/batch-input';
import { isTerminal } from '../../messaging/domain/message.decider';
import { DomainError, invalid } from '../../shared/domain-error';
import { rememberFormSend } from '../../shared/metrics/form-send';
import { RateLimiter } from '../../shared/http/rate-limiter';
import { parseRecipientsCsv, RecipientsFile } from './recipients-csv';
import { signedIn } from './console-auth';
import { SendManyConfirmForm, SendManyUploadForm } from './console-forms.dto';
import { ConsoleRequest, field, rawField, walletSmsLeft } from './console-http';
import { ConsolePage, ConsolePages, FormRefusal, Requires } from './console-page';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_FORM_BYTES, UPLOAD_PROBLEM_FIELD } from './multipart-form';
import { awaitingOutcome, REFRESH_SECONDS, sendAtFromForm } from './outcome-refresh';

/** The prefix of the Idempotency-Key a "Send to many" form carries (its one-time token follows). */
const CONSOLE_BATCH_KEY = 'console-batch-';

const UPLOAD_PROBLEMS: Record<string, string> = {
  too_large: `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB. One batch takes up to 1,000 rows: split it into several files.`,
  unreadable: 'The upload could not be read. Choose the file again.',
};

interface UploadedBatch {
  readonly csv: string;
  readonly sender_id: string;
  readonly type: string;
  readonly message: string;
  /** The "Send at" field as typed (Ghana time); empty to send now. */
  readonly send_at: string;
}

/**
 * "Send to many": a CSV file of recipients becomes one batch send (POST /v1/messages/batch's use
 * case, through the same command), after a preview that shows each row's segments, credits or
 * refusal from the same checks (a batch quote) before anything is reserved; then the batch's
 * progress.
 */
@ConsolePages()
export class ConsoleCampaignsController {
  constructor(
    private readonly page: ConsolePage,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly limiter: RateLimiter,
  ) {}

  @Get('send-many')
  @Requires('send')
  async sendManyPage(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.renderUpload(request, reply, {});
  }

  /**
   * The upload (multipart): read the file, quote every row, show the preview. Nothing is
   * reserved. Each checks up to 1,000 rows, so a session has only so many a minute.
   */
  @Post('send-many/preview')
  @Requires('send')
  @RouteConfig({ bodyLimit: MAX_UPLOAD_FORM_BYTES })
  async preview(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: SendManyUploadForm,
  ): Promise<void> {
    this.limiter.consumePreview(signedIn(request).session.handle);
    const upload = uploadedBatch(body, 'file');
    const problem = rawField(body, UPLOAD_PROBLEM_FIELD);
    if (problem)
      return this.renderUpload(request, reply, { upload, error: UPLOAD_PROBLEMS[problem], status: 413 });
    await this.renderPreview(request, reply, upload);
  }

  /**
   * The preview's Send button: the same file again, sent as one batch under the form's one-time
   * token. URL-encoding can triple a file's size, hence the route's own body limit.
   */
  @Post('send-many')
  @Requires('send')
  @RouteConfig({ bodyLimit: 3 * MAX_UPLOAD_BYTES + 64 * 1024 })
  async sendMany(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: SendManyConfirmForm,
  ): Promise<void> {
    const upload = uploadedBatch(body, 'csv');
    const file = parseRecipientsCsv(upload.csv);
    const { sender } = signedIn(request);
    await this.page.submit(request, reply, body, {
      act: async (token) => {
        if (file.refused) throw invalid('invalid_file', file.refused);
        const sent = await this.commands.execute(
          new SendBatch(sender, batchInput(upload, file), `${CONSOLE_BATCH_KEY}${token}`),
        );
        // Every row refused (the preview said so): nothing was sent or recorded.
        if (sent.batch.id === null)
          throw invalid('nothing_to_send', 'No row of this file can be sent: see each row’s reason below.');
        rememberFormSend(request, sent.replayed);
        return `/console/batches/${encodeURIComponent(sent.batch.id)}`;
      },
      refused: (refusal) =>
        file.refused
          ? this.renderUpload(request, reply, { upload, error: refusal.message, status: refusal.status })
          : this.renderPreview(request, reply, upload, refusal),
      shows: ['invalid_request', 'insufficient_credit', 'unprocessable'],
      alreadySent:
        'This file was already sent once from this preview, so it was not sent again. See Messages for what was sent.',
    });
  }

  @Get('batches/:id')
  async batch(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ): Promise<void> {
    const { sender } = signedIn(request);
    const batch = await this.page.found(() => this.queries.execute(new BatchById(id, sender)), 'batch');
    const messages = batch.data.flatMap((slot) => ('message' in slot ? [slot.message] : []));
    const refusals = batch.data.flatMap((slot, index) =>
      'error' in slot
        ? [{ item: index + 1, param: slot.error.param ?? '', message: slot.error.message }]
        : [],
    );
    const counts = new Map<string, number>();
    for (const m of messages) counts.set(m.status, (counts.get(m.status) ?? 0) + 1);
    const settled = messages.filter((m) => isTerminal(m.status)).length;
    const done = !awaitingOutcome(messages, Date.now());
    await this.page.render(request, reply, 'batch', {
      title: `Batch ${batch.id}`,
      nav: 'send-many',
      batch,
      messages,
      refusals,
      counts: [...counts].sort(([a], [b]) => a.localeCompare(b)),
      settled,
      done,
      refreshSeconds: done ? null : REFRESH_SECONDS,
    });
  }

  private async renderUpload(
    request: ConsoleRequest,
    reply: FastifyReply,
    extra: { upload?: UploadedBatch; error?: string; errorParam?: string | null; status?: number },
  ): Promise<void> {
    const { walletId } = signedIn(request);
    await this.page.render(
      request,
      reply,
      'send-many',
      {
        title: 'Send to many',
        nav: 'send-many',
        smsLeft: await walletSmsLeft(this.queries, walletId),
        input: extra.upload ?? { sender_id: '', type: 'transactional', message: '', send_at: '' },
        sendAtValue: extra.upload?.send_at ?? '',
        error: extra.error ?? null,
        errorParam: extra.errorParam ?? null,
      },
      extra.status,
    );
  }

  private async renderPreview(
    request: ConsoleRequest,
    reply: FastifyReply,
    upload: UploadedBatch,
    sendRefusal?: FormRefusal,
  ): Promise<void> {
    const file = parseRecipientsCsv(upload.csv);
    if (file.refused) return this.renderUpload(request, reply, { upload, error: file.refused, status: 400 });
    const { sender } = signedIn(request);
    let quote: BatchQuoteView;
    try {
      quote = await this.queries.execute(new BatchQuote(sender, batchInput(upload, file)));
    } catch (error) {
      // A refusal of the whole batch (sender ID, type, the common message): back to the form.
      if (!(error instanceof DomainError) || error.kind !== 'invalid_request') throw error;
      return this.renderUpload(request, reply, {
        upload,
        error: error.message,
        errorParam: error.param ?? null,
        status: 400,
      });
    }
    const rows = file.rows.map((row, index) => ({
      ...row,
      message: row.message ?? upload.message,
      quote: quote.items[index],
    }));
    await this.page.render(
      request,
      reply,
      'send-many-preview',
      {
        title: 'Check before sending',
        nav: 'send-many',
        upload,
        rows,
        problems: file.problems,
        quote,
        sendAt: sendAtFromForm(upload.send_at) ?? null,
        sendError: sendRefusal?.message ?? null,
      },
      sendRefusal?.status,
    );
  }
}

/** The form's batch fields; the file's text under `fileField` (the upload's file, or the preview's copy). */
function uploadedBatch(body: unknown, fileField: 'file' | 'csv'): UploadedBatch {
  return {
    csv: rawField(body, fileField),
    sender_id: field(body, 'sender_id'),
    type: field(body, 'type') || 'transactional',
    message: rawField(body, 'message'),
    send_at: field(body, 'send_at'),
  };
}

/** The batch body the file makes: rows without a message of their own take the common one. */
function batchInput(upload: UploadedBatch, file: RecipientsFile): BatchInput {
  const sendAt = sendAtFromForm(upload.send_at);
  return {
    sender_id: upload.sender_id,
    type: upload.type,
    ...(upload.message === '' ? {} : { message: upload.message }),
    ...(sendAt === undefined ? {} : { send_at: sendAt }),
    messages: file.rows.map((row) =>
      row.message === undefined ? { to: row.to } : { to: row.to, message: row.message },
    ),
  };
}
