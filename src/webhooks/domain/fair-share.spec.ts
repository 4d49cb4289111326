import { rotateAfter, roundRobin } from './fair-share';

describe('fair share of delivery slots', () => {
  it('takes one from each list in turn, up to the limit', () => {
    const dead = ['a1', 'a2', 'a3', 'a4', 'a5'];
    expect(roundRobin([dead, ['b1'], ['c1', 'c2']], 4)).toEqual(['a1', 'b1', 'c1', 'a2']);
    expect(roundRobin([dead, ['b1']], 100)).toEqual(['a1', 'b1', 'a2', 'a3', 'a4', 'a5']);
    expect(roundRobin([[], []], 5)).toEqual([]);
    expect(roundRobin([dead], 0)).toEqual([]);
  });

  it('starts after the wallet served first last time, wrapping around', () => {
    expect(rotateAfter(['a', 'b', 'c'], null)).toEqual(['a', 'b', 'c']);
    expect(rotateAfter(['a', 'b', 'c'], 'a')).toEqual(['b', 'c', 'a']);
    expect(rotateAfter(['a', 'b', 'c'], 'bb')).toEqual(['c', 'a', 'b']);
    expect(rotateAfter(['a', 'b', 'c'], 'c')).toEqual(['a', 'b', 'c']);
  });
});
