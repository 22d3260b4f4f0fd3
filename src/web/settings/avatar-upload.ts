// The profile picture's form as a browser posts it without JavaScript (multipart/form-data), read by @fastify/multipart
// in the avatar route's own scope only, before the form's authenticity check (routes.ts's preHandler reads the token
// from request.body): the text fields become the body, the picture's bytes wait aside for the handler. The parser keeps
// at most one byte over the largest picture (limits.fileSize) and throws away the rest as it arrives, so an oversized
// upload is never held whole and is refused (413); a body it cannot read is a 400 page, never a server error.
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AVATAR_MAX_BYTES } from '../../accounts/profile.js';
import { PageRefusal } from '../serve.js';

/** The file input's name. */
export const PICTURE_FIELD = 'avatar';

/** A file part: its name as the client gave it (none or '' when no file was chosen) and its bytes (cut past the limit). */
export interface Upload {
  filename: string;
  bytes: Buffer;
}

const uploads = new WeakMap<FastifyRequest, Upload>();

/**
 * Lets `scope` read multipart bodies: one file of at most AVATAR_MAX_BYTES + 1 bytes kept (the service refuses it
 * then), a few short text fields (the authenticity token), nothing written to disk.
 */
export async function acceptPictureForms(scope: FastifyInstance): Promise<void> {
  await scope.register(fastifyMultipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: AVATAR_MAX_BYTES + 1, files: 1, fields: 8, fieldSize: 1024, fieldNameSize: 100, parts: 9, headerPairs: 20 },
  });
}

/** What the parser's refusal means to the person: too much sent (413), or a body that is no form (400). */
function refusal(err: unknown): PageRefusal {
  const status = (err as { statusCode?: number }).statusCode;
  if (status === 413) return new PageRefusal(413, 'Upload refused', 'Send one picture of at most 1 MB with the form.');
  return new PageRefusal(
    400,
    'Something is wrong with this request',
    'The form could not be read. Choose the picture again and upload it.',
  );
}

/** A preValidation hook: a multipart body's text fields as request.body, its picture kept for `uploadOf`. */
export async function readPictureForm(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const fields: Record<string, string | string[]> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        if (part.fieldname === PICTURE_FIELD) uploads.set(request, { filename: part.filename ?? '', bytes: Buffer.concat(chunks) });
        continue;
      }
      const value = typeof part.value === 'string' ? part.value : '';
      const before = fields[part.fieldname];
      fields[part.fieldname] = before === undefined ? value : [before, value].flat();
    }
  } catch (err) {
    throw refusal(err);
  }
  request.body = fields;
}

/** The picture the request's form carried, if any. */
export function uploadOf(request: FastifyRequest): Upload | undefined {
  return uploads.get(request);
}
