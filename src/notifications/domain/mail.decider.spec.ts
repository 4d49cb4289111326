import { fold } from '../../shared/decider';
import { claim, failed, mailDecider, queue, sent } from './mail.decider';
import type { MailEvent, MailQueued } from './mail.events';

const policy = { baseMs: 1_000, maxMs: 60_000, windowMs: 3_600_000 };
const t0 = new Date('2026-11-25T10:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const queuedData: MailQueued['data'] = {
  mailId: 'mail_1',
  to: 'm@example.com',
  accountId: 'acct_1',
  template: { kind: 'sender_id_decided', senderId: 'MyShop', verdict: 'approved', reason: null },
  cause: { streamId: 'sender-id-acct_1-MyShop', revision: '1', position: '9' },
  queuedAt: t0.toISOString(),
};
const given = (...events: MailEvent[]) => fold(mailDecider, events);
const started = (attempt: number, ms: number): MailEvent => ({
  type: 'MailSendStarted',
  data: { attempt, instance: 'i1', at: at(ms).toISOString(), leaseUntil: at(ms + 120_000).toISOString() },
});
const queued: MailEvent = { type: 'MailQueued', data: queuedData };
const events = (r: { ok: boolean; value?: MailEvent[] }) => (r.ok ? r.value! : []);

describe('a mail', () => {
  it('is queued once per cause', () => {
    expect(events(queue(given(), queuedData))).toEqual([queued]);
    expect(events(queue(given(queued), queuedData))).toEqual([]);
  });

  it('is taken by one process at a time, and again only once its lease ran out', () => {
    const taken = events(claim(given(queued), { instance: 'i1', now: at(0), leaseMs: 120_000 }));
    expect(taken).toEqual([started(1, 0)]);
    expect(
      events(claim(given(queued, ...taken), { instance: 'i2', now: at(1_000), leaseMs: 120_000 })),
    ).toEqual([]);
    const retaken = events(
      claim(given(queued, ...taken), { instance: 'i2', now: at(120_000), leaseMs: 120_000 }),
    );
    expect(retaken).toEqual([
      { type: 'MailSendStarted', data: expect.objectContaining({ attempt: 2, instance: 'i2' }) },
    ]);
  });

  it('is sent once: only the attempt holding it records the outcome', () => {
    const m = given(queued, started(1, 0));
    expect(events(sent(m, { attempt: 1, transport: 'smtp', reference: '250 OK', now: at(10) }))).toEqual([
      {
        type: 'MailSent',
        data: { attempt: 1, at: at(10).toISOString(), transport: 'smtp', reference: '250 OK' },
      },
    ]);
    expect(events(sent(m, { attempt: 2, transport: 'smtp', reference: null, now: at(10) }))).toEqual([]);
    const done = given(
      queued,
      started(1, 0),
      ...events(sent(m, { attempt: 1, transport: 'smtp', reference: null, now: at(10) })),
    );
    expect(events(claim(done, { instance: 'i1', now: at(10_000_000), leaseMs: 1 }))).toEqual([]);
  });

  it('is retried after a growing backoff, then given up past the window', () => {
    const first = events(
      failed(given(queued, started(1, 0)), {
        attempt: 1,
        error: 'ECONNREFUSED',
        permanent: false,
        policy,
        now: at(5),
        random: () => 0.5,
      }),
    );
    expect(first).toEqual([
      {
        type: 'MailAttemptFailed',
        data: {
          attempt: 1,
          error: 'ECONNREFUSED',
          at: at(5).toISOString(),
          nextAttemptAt: at(1_005).toISOString(),
        },
      },
    ]);
    const m = given(queued, started(1, 0), ...first);
    expect(events(claim(m, { instance: 'i1', now: at(1_000), leaseMs: 10 }))).toEqual([]);
    expect(events(claim(m, { instance: 'i1', now: at(1_005), leaseMs: 10 }))).toHaveLength(1);
    const late = given(queued, started(1, 0), ...first, started(2, 3_600_000));
    expect(
      events(failed(late, { attempt: 2, error: 'timeout', permanent: false, policy, now: at(3_600_001) })),
    ).toEqual([
      {
        type: 'MailAbandoned',
        data: expect.objectContaining({ reason: 'retried for the whole window; last: timeout' }),
      },
    ]);
  });

  it('is given up at once when the server refuses the address for good', () => {
    expect(
      events(
        failed(given(queued, started(1, 0)), {
          attempt: 1,
          error: '550 no such user',
          permanent: true,
          policy,
          now: at(5),
        }),
      ),
    ).toEqual([
      {
        type: 'MailAbandoned',
        data: { attempt: 1, reason: 'refused: 550 no such user', at: at(5).toISOString() },
      },
    ]);
  });
});
