import { contactSearch, nameKey, normaliseName } from './contact-search';

describe('contact search keys', () => {
  it('finds names by their start, case, accents and spaces aside', () => {
    expect(normaliseName('  Ámá   MENSAH ')).toBe('ama mensah');
    expect(nameKey('Kofi  Mensah')).toBe('kofi mensah');
    expect(nameKey('   ')).toBeNull();
    expect(nameKey(null)).toBeNull();
    expect(contactSearch('Kofi M')).toEqual({ by: 'name', prefix: 'kofi m' });
  });

  it('searches numbers written in E.164, with a Ghana national 0, or with spaces', () => {
    expect(contactSearch('+233 24')).toEqual({ by: 'number', prefix: '+23324' });
    expect(contactSearch('024-123')).toEqual({ by: 'number', prefix: '+23324123' });
    expect(contactSearch('23324')).toEqual({ by: 'number', prefix: '+23324' });
    expect(contactSearch('  ')).toBeNull();
  });
});
