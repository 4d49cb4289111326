import type { DocumentWrite, ReadStore } from '../read-store/read-store.port';
import { BatchView } from './batch-view';

/** A read store holding one document: `stored/old`. */
const store = {
  get: async (collection: string, id: string) => (collection === 'stored' && id === 'old' ? { v: 0 } : null),
} as unknown as ReadStore;

const ops = (writes: DocumentWrite[]) => writes.map((w) => `${w.op} ${w.collection}/${w.id}`);

describe('BatchView', () => {
  it('keeps the last write of each document, and reads its own writes first', async () => {
    const view = new BatchView(store);
    view.put('stored', 'old', { v: 1 });
    view.put('stored', 'old', { v: 2 });
    view.delete('stored', 'gone');
    expect(await view.get('stored', 'old')).toEqual({ v: 2 });
    expect(await view.get('stored', 'gone')).toBeNull();
    expect(ops(view.writes())).toEqual(['put stored/old', 'delete stored/gone']);
  });

  it('writes nothing for a fresh document deleted in the same batch', async () => {
    const view = new BatchView(store);
    view.put('open', 'm1', { v: 1 }, undefined, { fresh: true });
    view.put('open', 'm1', { v: 2 });
    view.delete('open', 'm1');
    view.put('open', 'm2', { v: 1 }, undefined, { fresh: true });
    expect(await view.get('open', 'm1')).toBeNull();
    expect(ops(view.writes())).toEqual(['put open/m2']);
  });

  it('still deletes a document that was stored before the batch', () => {
    const view = new BatchView(store);
    view.put('stored', 'old', { v: 1 }); // not fresh: it may be stored already
    view.delete('stored', 'old');
    expect(ops(view.writes())).toEqual(['delete stored/old']);
  });
});
