import { Inject, Injectable } from '@nestjs/common';
import { ConcurrencyError, EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { mailStream, type MailQueued } from '../domain/mail.events';

/** Queues a mail: creates its stream, once (a second queuing of one cause finds it there). */
@Injectable()
export class MailQueue {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async queue(data: MailQueued['data']): Promise<void> {
    try {
      await this.events.append(mailStream(data.mailId), [{ type: 'MailQueued', data }], 'no_stream');
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error; // queued already, by this or another process
    }
  }
}
