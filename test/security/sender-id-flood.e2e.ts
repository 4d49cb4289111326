import { CommandBus } from '@nestjs/cqrs';
import { ReceiveInboundMessage } from '../../src/compliance/application/commands/receive-inbound-message.command';
import { MAX_INBOUND_LENGTH } from '../../src/compliance/domain/receiving-number';
import { senderIdsList, senderIdsReject } from '../../src/cli/commands/compliance.commands';
import { runCliProcessUnread } from '../support/cli';
import { createMerchant, Merchant } from '../support/merchant';
import { expectError, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 28, item 7: the operator's review queue. A free account could file any number of
 * sender-ID requests, `sender-ids:list` showed only the oldest 1,000 pending (a later, legitimate
 * request never appeared), and the CLI's output was cut at 64 KiB when piped.
 */
jest.setTimeout(240_000);

interface Listed {
  sender_ids: { sender_id: string; account_id: string; status: string }[];
  has_more: boolean;
  next_after: string | null;
}

describe('sender-ID requests: bounded per account, listed page by page, printed whole', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  const requestSenderId = (m: Merchant, senderId: string) =>
    t.request('POST', '/v1/sender_ids', {
      key: m.testKey,
      body: { sender_id: senderId, sample_message: `Sample for ${senderId}` },
    });

  it('keeps at most 10 pending per account (15 at once: 10 pending, 5 refused); a decision frees a slot', async () => {
    const m = await createMerchant(t, undefined, { approvedSenderIds: ['MyShop'] });
    const names = Array.from({ length: 15 }, (_, i) => `Flood${String(i).padStart(2, '0')}`);
    const answers = await Promise.all(names.map((name) => requestSenderId(m, name)));
    const accepted = answers.filter((a) => a.status === 200);
    expect(accepted).toHaveLength(10);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      const error = expectError(refused, 400, 'too_many_pending_sender_ids');
      expect(error).toMatchObject({ type: 'invalid_request_error', param: 'sender_id' });
    }
    const listed = (await t.request('GET', '/v1/sender_ids', { key: m.testKey })).body.data as {
      status: string;
    }[];
    expect(listed.filter((s) => s.status === 'pending')).toHaveLength(10);

    // An existing one is still 409 sender_id_exists, not the limit.
    const pendingName = accepted[0].body.sender_id as string;
    expectError(await requestSenderId(m, pendingName), 409, 'sender_id_exists');

    // The operator rejects one: one more may be requested.
    await senderIdsReject.run(t.app, { email: m.email, 'sender-id': pendingName, reason: 'No' });
    expect((await requestSenderId(m, 'AfterNo')).status).toBe(200);
    expectError(await requestSenderId(m, 'OneTooMany'), 400, 'too_many_pending_sender_ids');
  });

  it('pages sender-ids:list with --limit and --after: every pending request, the newest too, exactly once', async () => {
    const merchants = [await createMerchant(t), await createMerchant(t), await createMerchant(t)];
    const mine = new Set<string>();
    for (const [i, m] of merchants.entries()) {
      for (let j = 0; j < 4; j++) {
        const name = `Page${i}x${j}`;
        expect((await requestSenderId(m, name)).status).toBe(200);
        mine.add(`${m.accountId}|${name}`);
      }
    }
    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; ; pages++) {
      expect(pages).toBeLessThan(100);
      const { output } = await senderIdsList.run(t.app, {
        status: 'pending',
        limit: '5',
        ...(after === undefined ? {} : { after }),
      });
      const page = output as Listed;
      expect(page.sender_ids.length).toBeLessThanOrEqual(5);
      seen.push(...page.sender_ids.map((s) => `${s.account_id}|${s.sender_id}`));
      expect(page.sender_ids.every((s) => s.status === 'pending')).toBe(true);
      if (!page.has_more) {
        expect(page.next_after).toBeNull();
        break;
      }
      expect(page.next_after).toEqual(expect.any(String));
      after = page.next_after ?? undefined;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((s) => mine.has(s))).toEqual([...mine]); // all of them, oldest first
    await expect(senderIdsList.run(t.app, { limit: '0' })).rejects.toThrow(/--limit/);
    await expect(senderIdsList.run(t.app, { after: 'pending:nobody|Nothing' })).rejects.toThrow(/after/);
  });

  it('prints its whole answer when its output is a pipe read late (over 1 MB: inbound:unassigned --limit 1000)', async () => {
    const commands = t.app.get(CommandBus);
    const text = 'An inbound message as long as they come. '.repeat(39).slice(0, MAX_INBOUND_LENGTH);
    for (let i = 0; i < 700; i++) {
      await commands.execute(
        new ReceiveInboundMessage({
          from: { address: '233241234597', ton: 1, npi: 1 },
          to: { address: '9999', ton: 6, npi: 0 }, // assigned to nobody
          countryCallingCode: '233',
          message: `${i} ${text}`,
          environment: 'LIVE',
          carrier: 'MTN',
        }),
      );
    }
    const listed = await runCliProcessUnread(t.dataDir, ['inbound:unassigned', '--limit', '1000']);
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' });
    expect(listed.stdout.length).toBeGreaterThan(1_000_000);
    expect(listed.stdout.endsWith('\n')).toBe(true);
    const messages = (JSON.parse(listed.stdout) as { inbound_messages: unknown[] }).inbound_messages;
    expect(messages.length).toBeGreaterThanOrEqual(700);
  });
});
