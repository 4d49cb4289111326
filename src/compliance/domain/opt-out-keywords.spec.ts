import { optOutIntent } from './opt-out-keywords';

describe('optOutIntent', () => {
  it.each([
    'STOP',
    'stop',
    ' Stop ',
    'STOP ALL',
    'stop all',
    'StopAll',
    'UNSUBSCRIBE',
    'cancel',
    'End',
    'quit',
  ])('%p opts out', (text) => expect(optOutIntent(text)).toBe('opt_out'));

  it.each(['START', 'start', ' Un Stop ', 'unstop'])('%p opts back in', (text) =>
    expect(optOutIntent(text)).toBe('opt_in'),
  );

  it.each(['please stop', 'stopped', 'Thanks!', '', 'STOP!'])('%p changes nothing', (text) =>
    expect(optOutIntent(text)).toBeNull(),
  );
});
