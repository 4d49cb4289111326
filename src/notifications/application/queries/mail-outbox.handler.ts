import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { join } from 'node:path';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../../shared/read-store/read-store.port';
import { MAIL_TRANSPORT, MailTransport } from '../../ports/mail-transport.port';
import {
  DUE,
  FAILED,
  MAIL_OUTBOX_PROJECTION,
  MAILS,
  MailDoc,
  SENT,
} from '../../projections/mail-outbox.projection';
import { MailOutbox, MailOutboxListing } from './mail-outbox.query';

const PARTITIONS = { pending: DUE, sent: SENT, failed: FAILED } as const;

@QueryHandler(MailOutbox)
export class MailOutboxHandler implements IQueryHandler<MailOutbox, MailOutboxListing> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(MAIL_TRANSPORT) private readonly transport: MailTransport,
    private readonly projections: ProjectionsService,
  ) {}

  async execute({ status, limit }: MailOutbox): Promise<MailOutboxListing> {
    await this.projections.catchUp([MAIL_OUTBOX_PROJECTION]);
    const docs = await this.reads.list<MailDoc>(MAILS, {
      partition: PARTITIONS[status],
      order: status === 'pending' ? 'asc' : 'desc',
      limit,
    });
    const inOutbox = this.transport.name === 'outbox';
    return {
      transport: this.transport.name,
      target: this.transport.describe(),
      status,
      mails: docs.map((doc) => ({
        ...doc,
        file:
          inOutbox && doc.status === 'sent' && doc.reference
            ? join(this.transport.describe(), doc.reference)
            : null,
      })),
    };
  }
}
