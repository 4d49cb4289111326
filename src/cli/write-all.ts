/**
 * Resolves once the stream has handed all of `text` to the system. The caller exits the process
 * next: a pipe read slower than we write (`cli … | jq`) would otherwise lose everything still
 * queued, which cut large answers at the pipe's buffer (issue 28). A reader that went away
 * (EPIPE) ends the wait too, and its error is not thrown: there is nobody left to tell.
 */
export function writeAll(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    stream.once('error', () => resolve());
    stream.write(text, () => resolve());
  });
}
