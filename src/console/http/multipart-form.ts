import Busboy, { BusboyHeaders, BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The console's upload by default, the "Send to many" file: as large as a batch body may be (API.md). */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;

/** A route that takes a larger file names its limit in its route config (the contact import: 20 MiB). */
export const uploadLimitOf = (request: FastifyRequest): number =>
  (request.routeOptions?.config as { uploadBytes?: number } | undefined)?.uploadBytes ?? MAX_UPLOAD_BYTES;
/** The text fields that come with it (CSRF and one-time tokens, sender ID, message, time). */
const MAX_FIELD_BYTES = 8 * 1024;
const MAX_FIELDS = 20;
/** The whole upload form: its file, its fields and the multipart framing around them. */
export const MAX_UPLOAD_FORM_BYTES = MAX_UPLOAD_BYTES + MAX_FIELDS * MAX_FIELD_BYTES + 16 * 1024;

/** Marks a request whose body was cut at its route's limit: its answer closes the connection. */
const CUT = Symbol('multipartCut');
type CutRequest = FastifyRequest & { [CUT]?: boolean };

/**
 * Set on a parsed form when its upload was refused whole (never truncated): the page that took it
 * says so next to the form, like any other refusal of what was typed.
 */
export const UPLOAD_PROBLEM_FIELD = '_upload_problem';
export type UploadProblem = 'too_large' | 'unreadable';

/**
 * Parses `multipart/form-data` bodies (the console's file upload) into a plain object of strings,
 * a file's content read as UTF-8 under its field's name, so the console's form DTOs, CSRF guard
 * and one-time tokens see it exactly as they see an urlencoded form. One file at most. A
 * content-type parser costs nothing to requests of any other type, and the API refuses
 * non-JSON bodies before any parser runs.
 *
 * At most the route's body limit is read (16 KiB unless the route names more, as the upload
 * does, and such a route authenticates before its body: route-policies.ts), so a form posted to
 * any other console route is cut there, before its CSRF check refuses it; the rest is never read
 * (the answer closes the connection).
 */
export function registerMultipartForms(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request: CutRequest, reply, payload) => {
    if (request[CUT]) reply.header('connection', 'close');
    return payload;
  });
  fastify.addContentTypeParser('multipart/form-data', (request: CutRequest, payload, done) => {
    const fields: Record<string, string> = {};
    let settled = false;
    const finish = (problem?: UploadProblem) => {
      if (settled) return;
      settled = true;
      done(null, problem ? { ...fields, [UPLOAD_PROBLEM_FIELD]: problem } : fields);
    };
    let problem: UploadProblem | undefined;
    let busboy: BusboyInstance;
    try {
      busboy = new Busboy({
        headers: request.headers as BusboyHeaders,
        limits: {
          fileSize: uploadLimitOf(request),
          files: 1,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
        },
      });
    } catch {
      payload.resume();
      finish('unreadable');
      return;
    }
    busboy.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (valueTruncated) problem ??= 'too_large';
      else fields[name] = value;
    });
    busboy.on('file', (name: string, file: NodeJS.ReadableStream) => {
      const chunks: Buffer[] = [];
      file.on('data', (chunk: Buffer) => chunks.push(chunk));
      file.on('limit', () => (problem ??= 'too_large'));
      file.on('end', () => {
        if (problem === undefined) fields[name] = Buffer.concat(chunks).toString('utf8');
      });
    });
    busboy.on('filesLimit', () => (problem ??= 'too_large'));
    busboy.on('fieldsLimit', () => (problem ??= 'too_large'));
    busboy.on('error', () => finish('unreadable'));
    busboy.on('finish', () => finish(problem));
    payload.on('error', () => finish('unreadable'));
    const limit = request.routeOptions.bodyLimit;
    let read = 0;
    payload.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read <= limit || settled) return;
      request[CUT] = true;
      payload.unpipe(busboy);
      payload.pause();
      finish('too_large');
    });
    payload.pipe(busboy);
  });
}
