import fc from 'fast-check';
import { ReservationMap } from './reservation-map';

describe('ReservationMap', () => {
  const op = fc.oneof(
    fc.record({
      kind: fc.constant('set' as const),
      id: fc.integer({ min: 0, max: 300 }),
      sms: fc.integer({ min: 1, max: 9 }),
    }),
    fc.record({
      kind: fc.constant('delete' as const),
      id: fc.integer({ min: 0, max: 300 }),
      sms: fc.constant(0),
    }),
  );

  it('answers as a Map would after any edits, and never changes a map it was edited from', () => {
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 40 }), { maxLength: 8 }), (rounds) => {
        let map = ReservationMap.EMPTY;
        const model = new Map<string, number>();
        for (const round of rounds) {
          const before = [...map];
          const editor = map.edit();
          for (const { kind, id, sms } of round) {
            if (kind === 'set') {
              editor.set(`msg_${id}`, sms);
              model.set(`msg_${id}`, sms);
            } else {
              editor.delete(`msg_${id}`);
              model.delete(`msg_${id}`);
            }
            expect(editor.get(`msg_${id}`)).toBe(model.get(`msg_${id}`));
          }
          expect([...map]).toEqual(before); // the map edited from is untouched
          map = editor.done();
          expect(map.size).toBe(model.size);
          expect(new Map(map)).toEqual(model);
          for (let id = 0; id <= 300; id += 37) expect(map.has(`msg_${id}`)).toBe(model.has(`msg_${id}`));
        }
        expect(map).toEqual(ReservationMap.from(model)); // the same parts however it was reached
      }),
    );
  });

  it('answers as a Map would across the switch between one map and buckets, both ways', () => {
    let map = ReservationMap.EMPTY;
    const model = new Map<string, number>();
    for (const [from, to, sms] of [
      [0, 3000, 1],
      [0, 2800, 0],
      [5000, 5600, 2],
    ] as const) {
      const editor = map.edit();
      for (let i = from; i < to; i++) {
        if (sms === 0) {
          editor.delete(`msg_${i}`);
          model.delete(`msg_${i}`);
        } else {
          editor.set(`msg_${i}`, sms);
          model.set(`msg_${i}`, sms);
        }
      }
      map = editor.done();
      expect(new Map(map)).toEqual(model);
      expect(map.size).toBe(model.size);
    }
  });

  it('edits a map of 100,000 reservations, leaving it as it was', () => {
    const big = ReservationMap.from(Array.from({ length: 100_000 }, (_, i) => [`msg_${i}`, 1] as const));
    const editor = big.edit();
    editor.set('msg_new', 2);
    editor.delete('msg_7');
    const after = editor.done();
    expect({ before: big.size, after: after.size, kept: big.has('msg_7'), gone: after.has('msg_7') }).toEqual(
      {
        before: 100_000,
        after: 100_000,
        kept: true,
        gone: false,
      },
    );
  });
});
