// The signed-in person's "Public profile" at /settings/profile: GET shows it; POST /settings/profile changes the fields
// through the rules PATCH /user uses (accounts/profile.ts); POST /settings/profile/avatar takes a new picture from a
// multipart form (read in its own scope, avatar-upload.ts) and POST /settings/profile/avatar/delete removes it. A change
// made answers 303 back to the page, which then says so once (a short-lived cookie naming the notice); a refusal shows
// the page again (422, or 413 for a picture too large) with what was typed and each problem under its field.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { avatarOf, PictureTooLarge, removeOwnAvatar, setOwnAvatar, updateOwnProfile } from '../../accounts/profile.js';
import type { ServiceContext } from '../../core/context.js';
import { ValidationFailed, type FieldError } from '../../core/errors.js';
import { typed } from '../../http/typed.js';
import { csrfToken } from '../csrf.js';
import { field, formSchema, formErrors, type FormErrors } from '../forms.js';
import { htmlPage, send, webConfig as config } from '../serve.js';
import { asViewer, clearSiteCookie, cookieName, setSiteCookie, type Viewer } from '../viewer.js';
import { acceptPictureForms, PICTURE_FIELD, readPictureForm, uploadOf } from './avatar-upload.js';
import { profileSettingsPage, type ProfileSettingsOptions } from './profile-page.js';

const PAGE = '/settings/profile';
const FIELDS = ['name', 'email', 'bio', 'blog', 'company', 'location'] as const;
const LABELS = {
  name: { field: 'name', label: 'Name' },
  email: { field: 'email', label: 'Public email' },
  bio: { field: 'bio', label: 'Bio' },
  blog: { field: 'blog', label: 'URL' },
  company: { field: 'company', label: 'Company' },
  location: { field: 'location', label: 'Location' },
  avatar: { field: PICTURE_FIELD, label: 'Upload new picture' },
};

/** The notice a change leaves for the page it redirects to: a cookie naming one of these, read once. */
const NOTICE_COOKIE = 'hublet_notice';
const NOTICES: Record<string, string> = {
  profile: 'Profile updated successfully',
  picture: 'Your profile picture has been updated.',
  removed: 'Your profile picture has been removed.',
};

function changed(request: FastifyRequest, reply: FastifyReply, notice: keyof typeof NOTICES): FastifyReply {
  setSiteCookie(reply, NOTICE_COOKIE, notice, 60);
  return reply.redirect(`${request.ctx.urls.base}${PAGE}`, 303);
}

function takeNotice(request: FastifyRequest, reply: FastifyReply): string | undefined {
  const key = request.cookies[cookieName(request, NOTICE_COOKIE)];
  if (key === undefined) return undefined;
  clearSiteCookie(reply, NOTICE_COOKIE);
  return Object.hasOwn(NOTICES, key) ? NOTICES[key] : undefined;
}

async function sendProfilePage(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: ServiceContext,
  viewer: Viewer,
  status: number,
  extra: Pick<ProfileSettingsOptions, 'errors' | 'submitted' | 'notice'> = {},
): Promise<FastifyReply> {
  const picture = (await avatarOf(ctx.db, viewer.user.id))?.sha ?? null;
  const markup = profileSettingsPage({ base: ctx.urls.base, csrf: csrfToken(request, reply), user: viewer.user, picture, ...extra });
  return send(reply, htmlPage(markup, status));
}

/** A refused picture: the page again with the reason under the file input (413 when too large, else 422). */
function pictureRefusal(err: unknown): { status: number; errors: FormErrors } | null {
  if (err instanceof PictureTooLarge) return { status: 413, errors: { [PICTURE_FIELD]: err.message } };
  if (err instanceof ValidationFailed) return { status: 422, errors: formErrors(err.extra.errors as FieldError[], LABELS) };
  return null;
}

export function profileRoutes(fastify: FastifyInstance): void {
  const app = typed(fastify);

  app.get(PAGE, { schema: { querystring: { type: 'object' } }, config }, async (request, reply) =>
    asViewer(request, reply, (ctx, viewer) => sendProfilePage(request, reply, ctx, viewer, 200, { notice: takeNotice(request, reply) })),
  );

  app.post(PAGE, { schema: formSchema, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx, viewer) => {
        const body = request.body;
        const changes = Object.fromEntries(FIELDS.map((name) => [name, field(body, name)]));
        try {
          await updateOwnProfile(ctx, changes);
        } catch (err) {
          if (!(err instanceof ValidationFailed)) throw err;
          const errors = formErrors(err.extra.errors as FieldError[], LABELS);
          return sendProfilePage(request, reply, ctx, viewer, 422, { errors, submitted: body });
        }
        return changed(request, reply, 'profile');
      },
      PAGE,
    ),
  );

  app.post(`${PAGE}/avatar/delete`, { schema: formSchema, config }, async (request, reply) =>
    asViewer(
      request,
      reply,
      async (ctx) => {
        await removeOwnAvatar(ctx);
        return changed(request, reply, 'removed');
      },
      PAGE,
    ),
  );

  // The upload in a scope of its own: only this route reads multipart bodies.
  fastify.register(async (scope) => {
    await acceptPictureForms(scope);
    const app = typed(scope);
    app.post(`${PAGE}/avatar`, { schema: formSchema, config, preValidation: readPictureForm }, async (request, reply) =>
      asViewer(
        request,
        reply,
        async (ctx, viewer) => {
          const upload = uploadOf(request);
          if (!upload || (!upload.filename && upload.bytes.length === 0)) {
            return sendProfilePage(request, reply, ctx, viewer, 422, { errors: { [PICTURE_FIELD]: 'Choose a picture to upload.' } });
          }
          try {
            await setOwnAvatar(ctx, upload.bytes);
          } catch (err) {
            const refused = pictureRefusal(err);
            if (!refused) throw err;
            return sendProfilePage(request, reply, ctx, viewer, refused.status, { errors: refused.errors });
          }
          return changed(request, reply, 'picture');
        },
        PAGE,
      ),
    );
  });
}
