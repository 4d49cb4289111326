const SENT = Symbol('formSend');

type Stash = { [SENT]?: { replayed: boolean } };

/**
 * Notes on a console form's request that it sent a message or a batch (or, with `replayed`,
 * answered again from its form token): a page answers a send with a redirect, not a 2xx, so the
 * HTTP edge (send-metrics.hooks.ts) counts it as accepted only from this note.
 */
export function rememberFormSend(request: object, replayed: boolean): void {
  (request as Stash)[SENT] = { replayed };
}

/** The note rememberFormSend left; undefined when the request sent nothing. */
export const formSendOf = (request: object): { replayed: boolean } | undefined => (request as Stash)[SENT];
