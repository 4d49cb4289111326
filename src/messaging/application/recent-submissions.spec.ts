import { RecentSubmissions } from './recent-submissions';

describe('RecentSubmissions', () => {
  it('answers a receipt for a just-submitted id only once its MessageSent is recorded', async () => {
    const submissions = new RecentSubmissions();
    let record!: (ok: boolean) => void;
    submissions.remember(
      'LIVE',
      'MTN',
      ['c-1', 'c-2'],
      'msg_1',
      new Promise((resolve) => (record = resolve)),
    );
    let answered: string | null | undefined;
    const lookup = submissions.messageFor('LIVE', 'MTN', ['x', 'c-2']).then((id) => (answered = id));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBeUndefined(); // still waiting for the recording
    record(true);
    await lookup;
    expect(answered).toBe('msg_1');
  });

  it('knows nothing of other carriers, other ids, or a submission whose result was not recorded', async () => {
    const submissions = new RecentSubmissions();
    submissions.remember('LIVE', 'MTN', ['c-1'], 'msg_1', Promise.resolve(true));
    submissions.remember('LIVE', 'MTN', ['c-9'], 'msg_9', Promise.reject(new Error('store down')));
    submissions.remember('LIVE', 'MTN', ['c-8'], 'msg_8', Promise.resolve(false));
    expect(await submissions.messageFor('LIVE', 'AT', ['c-1'])).toBeNull();
    expect(await submissions.messageFor('LIVE', 'MTN', ['c-2'])).toBeNull();
    expect(await submissions.messageFor('LIVE', 'MTN', ['c-9'])).toBeNull();
    expect(await submissions.messageFor('LIVE', 'MTN', ['c-8'])).toBeNull();
    expect(await submissions.messageFor('LIVE', 'MTN', ['c-1'])).toBe('msg_1');
  });

  it("knows nothing of the other environment's submissions on the same carrier name", async () => {
    const submissions = new RecentSubmissions();
    submissions.remember('TEST', 'MTN', ['sim-msg_1-1'], 'msg_1', Promise.resolve(true));
    expect(await submissions.messageFor('LIVE', 'MTN', ['sim-msg_1-1'])).toBeNull();
    expect(await submissions.messageFor('TEST', 'MTN', ['sim-msg_1-1'])).toBe('msg_1');
  });
});
