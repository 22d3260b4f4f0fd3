// A `git push` to a gist: checked before git applies it (the API's rules, rules.ts), then recorded: the pushed commits
// become revisions and the pushed tree becomes the current file rows.
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema.js';
import type { RefUpdate } from '../git/bare.js';
import { receiveIncoming, sendRefusal, ZERO_OID, type IncomingPush } from '../git/receive-pack.js';
import type { ServiceContext } from '../server/context.js';
import { changeStatus, type SnapshotFile } from './diffstat.js';
import { GIST_BRANCH, GIST_REF, firstParentChain, gistRepoDir, readBlob, readTreeEntries, setHead } from './git.js';
import { revisionProblems, type FileLimits } from './rules.js';
import { advanceHead, deleteRevisionsFrom, fileMetas, findGist, insertRevisions, revisionsOf } from './store.js';
import type { GistRevisionRow, GistRow } from './tables.js';
import { fileRow, replaceFileRows } from './write.js';

/**
 * Why a push to a gist is refused (empty: accepted). Only the main branch, which cannot be deleted; every commit the
 * push adds (and its tip) must be a revision the API would accept after the commit before it: regular files only, names
 * new in it acceptable, the number of files and their sizes within the limits (rules.ts, the API's own checks).
 */
export async function pushProblems(push: IncomingPush, limits: FileLimits): Promise<string[]> {
  if (push.unpackError) return [`The pushed objects could not be read: ${push.unpackError}`];
  for (const c of push.commands) {
    if (c.ref !== GIST_REF) return [`Gists only accept pushes to the ${GIST_BRANCH} branch; refusing ${c.ref}.`];
    if (c.new === ZERO_OID) return [`The ${GIST_BRANCH} branch of a gist cannot be deleted.`];
  }
  const tips = push.commands.map((c) => c.new);
  if (!tips.length) return [];
  const unreadable = ['The pushed commits could not be read.'];
  const fresh = await push.objects.newCommits(tips).catch(() => null);
  if (!fresh) return unreadable;
  // Oldest first, so a refusal names the first commit that breaks a rule.
  const checked = [...new Set([...tips, ...fresh])].reverse();
  const commits = await push.objects.commits(checked);
  if (checked.some((oid) => !commits.has(oid))) return [`Gists only accept commits on the ${GIST_BRANCH} branch.`];
  const parentIds = [...new Set(checked.flatMap((oid) => commits.get(oid)!.parents))].filter((oid) => !commits.has(oid));
  for (const [oid, c] of await push.objects.commits(parentIds)) commits.set(oid, c);
  const trees = await push.objects.trees([...new Set([...commits.values()].map((c) => c.tree))]);
  const blobs = new Set<string>();
  for (const oid of checked) for (const e of trees.get(commits.get(oid)!.tree) ?? []) blobs.add(e.oid);
  const sizes = await push.objects.sizes([...blobs]);
  for (const oid of checked) {
    const commit = commits.get(oid)!;
    const entries = trees.get(commit.tree);
    if (!entries) return unreadable;
    const kept = new Set(commit.parents.flatMap((p) => (trees.get(commits.get(p)?.tree ?? '') ?? []).map((e) => e.name)));
    const files = entries.map((e) => ({ filename: e.name, size: sizes.get(e.oid) ?? 0, mode: e.mode }));
    const problems = revisionProblems(files, kept, limits);
    if (problems.length) return [...new Set(problems.map((p) => p.message))];
  }
  return [];
}

/**
 * Runs a push request (`POST …/git-receive-pack`) through pushProblems: the request is spooled and its pack looked at
 * in a quarantine; a refused push is answered in git's protocol (`remote:` lines, `! [remote rejected]`) and changes
 * nothing; an accepted one is handed, byte for byte, to `forward` (git http-backend).
 */
export async function checkedPush(
  request: FastifyRequest,
  reply: FastifyReply,
  dir: string,
  limits: FileLimits,
  forward: (body: Readable) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  let push: IncomingPush;
  try {
    push = await receiveIncoming(dir, request.body as Readable, request.headers['content-encoding']);
  } catch (err) {
    request.log.warn({ err, reqId: request.id }, 'gist push request unreadable');
    return reply.code(400).header('content-type', 'text/plain; charset=utf-8').send('The push request could not be read.\n');
  }
  try {
    const problems = await pushProblems(push, limits);
    if (problems.length) return sendRefusal(reply, push, problems);
    return await forward(push.body());
  } finally {
    await push.dispose();
  }
}

/** The files of a commit with their bytes; blobs read once per push however many commits share them. */
async function snapshot(dir: string, sha: string, blobs: Map<string, Buffer>, cache: object): Promise<SnapshotFile[]> {
  const out: SnapshotFile[] = [];
  for (const e of await readTreeEntries(dir, sha, cache)) {
    let content = blobs.get(e.oid);
    if (!content) {
      content = (await readBlob(dir, e.oid, cache)) ?? Buffer.alloc(0);
      blobs.set(e.oid, content);
    }
    out.push({ filename: e.filename, oid: e.oid, content });
  }
  return out;
}

/**
 * Records a push: every new commit on the first-parent chain becomes a revision by the pusher (with its line
 * changes), revisions a force-push dropped are removed, and the tip's files replace the rows — all in one
 * transaction that moves the head from where it was before the push. When that fails, the branch is put back
 * where the database says, so git never shows what the API does not.
 */
export async function recordPush(ctx: ServiceContext, gist: GistRow, pusher: UserRow, updates: RefUpdate[]): Promise<void> {
  const update = updates.find((u) => u.ref === GIST_REF);
  if (!update) return;
  const dir = gistRepoDir(ctx.config, gist.id);
  try {
    const known = await revisionsOf(ctx.db, gist.id);
    const cache = {};
    const blobs = new Map<string, Buffer>();
    const chain = await firstParentChain(dir, update.after, (sha) => known.has(sha), cache);
    const base = known.get(chain[chain.length - 1].sha);
    const fresh = (base ? chain.slice(0, -1) : chain).reverse();
    const startPosition = base ? base.position + 1 : 0;

    let previous = base ? await snapshot(dir, base.version, blobs, cache) : [];
    const revisions: GistRevisionRow[] = [];
    for (const [i, commit] of fresh.entries()) {
      const files = await snapshot(dir, commit.sha, blobs, cache);
      revisions.push({
        gist_id: gist.id,
        version: commit.sha,
        position: startPosition + i,
        user_id: pusher.id,
        committed_at: commit.committedAt.toISOString(),
        ...changeStatus(previous, files),
      });
      previous = files;
    }
    const rows = await Promise.all(previous.map((f) => fileRow(gist.id, f.filename, f.content, f.oid)));
    const before = (await fileMetas(ctx.db, [gist.id])).get(gist.id) ?? [];
    const updatedAt = ctx.clock.now().toISOString();
    const recorded = await ctx.db.transaction().execute(async (trx) => {
      if (!(await advanceHead(trx, gist.id, update.before, { head_sha: update.after, updated_at: updatedAt }))) return false;
      await deleteRevisionsFrom(trx, gist.id, startPosition);
      await insertRevisions(trx, revisions);
      await replaceFileRows(trx, gist.id, before, rows);
      return true;
    });
    if (!recorded) throw new Error('the gist changed while the push was recorded');
  } catch (err) {
    ctx.log.error({ err, gist: gist.id }, 'gist push could not be recorded; the branch is put back');
    const current = await findGist(ctx.db, gist.id);
    if (current) await setHead(dir, current.head_sha);
  }
}
