import type { QueryBus } from '@nestjs/cqrs';
import { parseTemplate } from '../../audiences/domain/template';
import { unwrap } from '../../shared/result';
import { CHUNK_SIZE, MAX_RECIPIENTS, RecipientRow } from '../domain/campaign.events';
import { CampaignLists, PreparedCampaign } from './campaign-lists';
import type { CampaignStore } from './campaign-store';

/**
 * The listing over an audience of any size: pages asked in number order with the cursor, chunks
 * of 1,000 written as they fill, and a campaign past 100,000 recipients refused (the e2e suites
 * cannot afford an audience that size; the bench lists one of 100,000).
 */
describe('CampaignLists', () => {
  const prepared = (type: 'transactional' | 'promotional' = 'transactional'): PreparedCampaign => ({
    valid: {
      name: 'N',
      senderId: 'School',
      type,
      message: 'Hi {{name}}',
      templateId: null,
      audience: { groups: ['grp_1'], contacts: [] },
      sendAt: null,
    },
    message: 'Hi {{name}}',
    plan: {
      senderId: 'School',
      type,
      template: unwrap(parseTemplate('Hi {{name}}')),
      routes: [],
      carriers: new Set(['MTN']),
    },
  });

  /** An audience of `size` MTN numbers, served a page at a time as AudiencePage would. */
  function audience(size: number) {
    const asked: { after: string | null; limit: number; optOuts: boolean }[] = [];
    const numberAt = (i: number) => `+23324${String(1_000_000 + i)}`;
    const queries = {
      execute: async (query: { afterNumber: string | null; limit: number; optOuts: boolean }) => {
        asked.push({ after: query.afterNumber, limit: query.limit, optOuts: query.optOuts });
        const start = query.afterNumber === null ? 0 : Number(query.afterNumber.slice(6)) - 1_000_000 + 1;
        const end = Math.min(size, start + query.limit);
        const members = [];
        for (let i = start; i < end; i++)
          members.push({
            id: `con_${i}`,
            phoneNumber: numberAt(i),
            name: `P${i}`,
            fields: {},
            optedOut: false,
          });
        return { members, next: end < size ? numberAt(end - 1) : null, duplicates: 1 };
      },
    } as unknown as QueryBus;
    const written: { chunk: number; rows: number }[] = [];
    const store = {
      appendChunk: async (_stream: string, chunk: number, rows: readonly RecipientRow[]) => {
        written.push({ chunk, rows: rows.length });
      },
    } as unknown as CampaignStore;
    const clock = { now: () => new Date() };
    return { lists: new CampaignLists(queries, store, clock), asked, written };
  }

  it('reads the audience a page at a time and writes the list in chunks of 1,000', async () => {
    const { lists, asked, written } = audience(2500);
    const listed = await lists.fromAudience('wal_1', prepared(), 'campaign-recipients-x', 3);
    expect(listed).toMatchObject({ recipients: 2500, credits: 2500, chunks: 3, skipped: { duplicate: 3 } });
    expect(listed.samples.map((s) => s.message)).toEqual(['Hi P0', 'Hi P1', 'Hi P2']);
    expect(asked.map((a) => a.after)).toEqual([null, '+233241000999', '+233241001999']);
    expect(asked.every((a) => a.limit === CHUNK_SIZE && a.optOuts === false)).toBe(true);
    expect(written).toEqual([
      { chunk: 0, rows: 1000 },
      { chunk: 1, rows: 1000 },
      { chunk: 2, rows: 500 },
    ]);
  });

  it('lists one audience of a wallet at a time: another at once is 429', async () => {
    const { lists } = audience(3000);
    const first = lists.fromAudience('wal_1', prepared(), null, 0);
    await expect(lists.fromAudience('wal_1', prepared(), null, 0)).rejects.toMatchObject({
      kind: 'rate_limit',
      code: 'rate_limited',
      headers: { 'retry-after': '1' },
    });
    await expect(lists.fromAudience('wal_2', prepared(), null, 0)).resolves.toMatchObject({
      recipients: 3000,
    });
    expect((await first).recipients).toBe(3000);
    expect((await lists.fromAudience('wal_1', prepared(), null, 0)).recipients).toBe(3000);
  });

  it('asks for opt-outs only for a promotional campaign', async () => {
    const { lists, asked } = audience(10);
    await lists.fromAudience('wal_1', prepared('promotional'), null, 0);
    expect(asked[0].optOuts).toBe(true);
  });

  it(`takes ${MAX_RECIPIENTS.toLocaleString('en-US')} recipients and refuses one more`, async () => {
    const { lists } = audience(MAX_RECIPIENTS);
    expect((await lists.fromAudience('wal_1', prepared(), null, 0)).recipients).toBe(MAX_RECIPIENTS);
    const over = audience(MAX_RECIPIENTS + 1);
    await expect(over.lists.fromAudience('wal_1', prepared(), null, 0)).rejects.toMatchObject({
      code: 'too_many_recipients',
      param: 'audience',
    });
  });
});
