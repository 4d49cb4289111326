import { Inject, Injectable } from '@nestjs/common';
import { AggregateStore, Handled, Loaded } from '../../shared/event-store/aggregate-store';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import type { DomainError } from '../../shared/domain-error';
import type { Result } from '../../shared/result';
import { Campaign, campaignDecider } from '../domain/campaign.decider';
import { decodeRecipients, encodeRecipients } from '../domain/recipient-list';
import {
  campaignStream,
  CampaignEvent,
  CampaignRecipientsListed,
  RecipientRow,
} from '../domain/campaign.events';

/** A campaign's streams as the use cases read and write them: always from the log, never a read model. */
@Injectable()
export class CampaignStore {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly aggregates: AggregateStore,
  ) {}

  load(campaignId: string): Promise<Loaded<Campaign>> {
    return this.aggregates.load(campaignStream(campaignId), campaignDecider);
  }

  /** Decides on the campaign as it now stands and appends at its revision (again on a conflict). */
  handle(
    campaignId: string,
    decide: (state: Campaign) => Result<CampaignEvent[], DomainError>,
  ): Promise<Result<Handled<Campaign, CampaignEvent>, DomainError>> {
    return this.aggregates.handle(campaignStream(campaignId), campaignDecider, decide);
  }

  /** One chunk of a campaign's recipient list; null when the list has no such chunk. */
  async listChunk(listStream: string, chunk: number): Promise<readonly RecipientRow[] | null> {
    const [listed] = await this.events.readStream(listStream, { fromRevision: BigInt(chunk), limit: 1 });
    return listed ? decodeRecipients((listed as unknown as CampaignRecipientsListed).data.csv) : null;
  }

  /** Every chunk of a list in order, one at a time (memory: one chunk). */
  async *chunks(
    listStream: string,
    count: number,
  ): AsyncGenerator<{ chunk: number; rows: readonly RecipientRow[] }> {
    for (let chunk = 0; chunk < count; chunk++) {
      const rows = await this.listChunk(listStream, chunk);
      if (rows === null) return;
      yield { chunk, rows };
    }
  }

  /** Appends one chunk of a list being written, at its place (the list is written in order, once). */
  async appendChunk(listStream: string, chunk: number, rows: readonly RecipientRow[]): Promise<void> {
    const event: CampaignRecipientsListed = {
      type: 'CampaignRecipientsListed',
      data: { chunk, rows: rows.length, csv: encodeRecipients(rows) },
    };
    await this.events.append(listStream, [event], chunk === 0 ? 'no_stream' : BigInt(chunk - 1));
  }
}
