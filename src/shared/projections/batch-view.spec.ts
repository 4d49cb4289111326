import type { DocumentWrite, ReadStore } from '../read-store/read-store.port';
import { BatchView, CommittedDocuments } from './batch-view';

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

  describe('with the documents it committed', () => {
    const counting = () => {
      const reads: string[] = [];
      const counted = {
        get: async (collection: string, id: string) => {
          reads.push(`${collection}/${id}`);
          return collection === 'own' && id === 'stored' ? { v: 0 } : null;
        },
      } as unknown as ReadStore;
      return { reads, counted };
    };

    it('reads each of its own documents from the store once, then as last committed', async () => {
      const { reads, counted } = counting();
      const committed = new CommittedDocuments(['own']);
      const first = new BatchView(counted, undefined, committed);
      expect(await first.get('own', 'stored')).toEqual({ v: 0 });
      expect(await first.get('own', 'missing')).toBeNull();
      first.put('own', 'stored', { v: 1 });
      first.delete('own', 'other');
      committed.committed(first.writes());

      const next = new BatchView(counted, undefined, committed);
      expect(await next.get('own', 'stored')).toEqual({ v: 1 });
      expect(await next.get('own', 'missing')).toBeNull();
      expect(await next.get('own', 'other')).toBeNull();
      expect(reads).toEqual(['own/stored', 'own/missing']);
    });

    it("always reads another projection's collections from the store, and forgets on clear", async () => {
      const { reads, counted } = counting();
      const committed = new CommittedDocuments(['own']);
      const view = new BatchView(counted, undefined, committed);
      await view.get('theirs', 'x');
      await view.get('theirs', 'x');
      await view.get('own', 'stored');
      committed.clear();
      await new BatchView(counted, undefined, committed).get('own', 'stored');
      expect(reads).toEqual(['theirs/x', 'theirs/x', 'own/stored', 'own/stored']);
    });
  });
});
