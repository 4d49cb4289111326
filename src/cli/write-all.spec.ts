import { Writable } from 'node:stream';
import { writeAll } from './write-all';

/** A stream whose writes complete only when the test says so: a reader that is slow to read. */
function slowReader() {
  const pending: Array<() => void> = [];
  const written: string[] = [];
  const stream = new Writable({
    highWaterMark: 4,
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString('utf8'));
      pending.push(() => callback());
    },
  });
  return { stream, written, release: () => pending.splice(0).forEach((f) => f()) };
}

describe('writeAll', () => {
  it('resolves only once the stream has taken the whole text (so the CLI exits after it)', async () => {
    const reader = slowReader();
    let done = false;
    const writing = writeAll(reader.stream, 'x'.repeat(100_000)).then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    reader.release();
    await writing;
    expect(done).toBe(true);
    expect(reader.written.join('')).toHaveLength(100_000);
  });

  it('resolves when the reader went away', async () => {
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    await expect(writeAll(stream, 'hello\n')).resolves.toBeUndefined();
  });
});
