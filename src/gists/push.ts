// A `git push` to a gist: checked before git applies it (the API's rules, rules.ts), then recorded: the pushed commits
// become revisions and the pushed tree becomes the current file rows, before git's answer reaches the pusher.
//
// Why the answer is held: a writer in another process (a second server, the CLI in local mode) takes no lock of this
// one, so between git moving the branch and the push's record it may move the database's head first. git's answer
// ("ok") waits until the push's compare-and-set of the head has committed: a push that loses is put back and refused
// as stale ("fetch first"), and one that wins is the head the other writer then re-applies its change on (head-retry.ts).
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema.js';
import type { RefUpdate } from '../git/bare.js';
import { receiveIncoming, reportedRefs, sendRefusal, ZERO_OID, type IncomingPush } from '../git/receive-pack.js';
import { heldGitAnswer, sendGitAnswer } from '../git/smart-http.js';
import type { ServiceContext } from '../core/context.js';
import { changeStatus, type SnapshotFile } from './diffstat.js';
import { GIST_BRANCH, GIST_REF, firstParentChain, gistRepoDir, readBlob, readHead, readTreeEntries, setHead } from './git.js';
import { treeChange } from './plan.js';
import { revisionProblems, type FileLimits } from './rules.js';
import { advanceHead, deleteRevisionsFrom, fileMetas, findGist, insertRevisions, replaceFileRows, revisionsOf } from './store.js';
import type { GistRevisionRow, GistRow } from '../db/tables/gists.js';
import { fileRow, syncRef } from './write.js';

/**
 * Why a push to a gist is refused (empty: accepted). Only the main branch, which cannot be deleted; every commit the
 * push adds (and its tip) must be a revision the API would accept after the commit before it: regular files only, names
 * new in it acceptable, the number of files and their sizes within the limits (rules.ts, the API's own checks).
 */
async function pushProblems(push: IncomingPush, limits: FileLimits): Promise<string[]> {
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

/** What git shows for a push that is stale, or lost the head to another writer (GitHub's word for a stale push). */
const STALE_REASON = 'fetch first';
const STALE_MESSAGE = 'The gist has changed since you fetched it: fetch, then push again.';

export interface GistPush {
  ctx: ServiceContext;
  /** The gist as the database has it now (its branch already put there). */
  gist: GistRow;
  pusher: UserRow;
  limits: FileLimits;
}

/**
 * Runs a push request (`POST …/git-receive-pack`) to a gist. The request is spooled and its pack looked at in a
 * quarantine: a push against the API's rules (pushProblems) or from a stale head is answered with a refusal in git's
 * protocol (`remote:` lines, `! [remote rejected]`) and changes nothing. An accepted one is handed, byte for byte, to
 * `git http-backend`, whose answer is held until the push is recorded (recordPush); a push that could not be recorded
 * is put back and refused instead, so git never reports a push the gist does not keep. Call under the gist's lock.
 */
export async function checkedPush(request: FastifyRequest, reply: FastifyReply, target: GistPush): Promise<FastifyReply> {
  const dir = gistRepoDir(target.ctx.config, target.gist.id);
  let push: IncomingPush;
  try {
    push = await receiveIncoming(dir, request.body as Readable, request.headers['content-encoding']);
  } catch (err) {
    request.log.warn({ err, reqId: request.id }, 'gist push request unreadable');
    return reply.code(400).header('content-type', 'text/plain; charset=utf-8').send('The push request could not be read.\n');
  }
  try {
    const problems = await pushProblems(push, target.limits);
    if (problems.length) return sendRefusal(reply, push, problems);
    const command = push.commands.find((c) => c.ref === GIST_REF);
    if (command && command.old !== target.gist.head_sha) return sendRefusal(reply, push, [STALE_MESSAGE], STALE_REASON);

    const answer = await heldGitAnswer(request, {
      repoDir: dir,
      endpoint: 'git-receive-pack',
      remoteUser: target.pusher.login,
      body: push.body(),
    });
    if (!command) return sendGitAnswer(reply, answer);
    const report = reportedRefs(answer.body, push.capabilities);
    // A client that asked for no report: whether git moved the branch is read from the branch itself.
    const applied = report ? report.has(GIST_REF) && report.get(GIST_REF) === null : (await readHead(dir)) === command.new;
    if (!applied) {
      // git could not move the branch because another process's write moved it meanwhile: stale, said as such.
      const now = await findGist(target.ctx.db, target.gist.id);
      return now && now.head_sha !== command.old ? sendRefusal(reply, push, [STALE_MESSAGE], STALE_REASON) : sendGitAnswer(reply, answer);
    }
    const update = { ref: GIST_REF, before: command.old, after: command.new };
    const outcome = await recordPush(target.ctx, target.gist, target.pusher, update);
    if (outcome === 'recorded') return sendGitAnswer(reply, answer);
    if (outcome === 'stale') return sendRefusal(reply, push, [STALE_MESSAGE], STALE_REASON);
    return sendRefusal(reply, push, ['The push could not be recorded; the gist is unchanged. Try again.'], 'not recorded');
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
 * Records a push git has applied: every new commit on the first-parent chain becomes a revision by the pusher (with
 * its line changes), revisions a force-push dropped are removed, and the tip's files replace the rows — all in one
 * transaction that moves the head from where it was before the push (a compare-and-set). `stale` when another writer
 * moved the head first, `failed` when recording failed: the branch is then put back where the database says, so git
 * never shows what the API does not, and the push must be answered as refused.
 */
async function recordPush(
  ctx: ServiceContext,
  gist: GistRow,
  pusher: UserRow,
  update: RefUpdate,
): Promise<'recorded' | 'stale' | 'failed'> {
  let outcome: 'stale' | 'failed' = 'failed';
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
    const rowChange = treeChange((await fileMetas(ctx.db, [gist.id])).get(gist.id) ?? [], rows);
    const updatedAt = ctx.clock.now().toISOString();
    const recorded = await ctx.db.transaction().execute(async (trx) => {
      if (!(await advanceHead(trx, gist.id, update.before, { head_sha: update.after, updated_at: updatedAt }))) return false;
      await deleteRevisionsFrom(trx, gist.id, startPosition);
      await insertRevisions(trx, revisions);
      await replaceFileRows(trx, gist.id, rowChange.gone, rowChange.rows);
      return true;
    });
    if (recorded) {
      // A git request of another process may have put the branch back to the old head meanwhile (its syncRef).
      await syncRef(dir, update.after).catch((err: unknown) =>
        ctx.log.warn({ err, gist: gist.id }, 'gist branch not moved; the next git request will move it'),
      );
      return 'recorded';
    }
    outcome = 'stale';
    ctx.log.info({ gist: gist.id }, 'gist push lost the head to another write; refused, the branch is put back');
  } catch (err) {
    ctx.log.error({ err, gist: gist.id }, 'gist push could not be recorded; refused, the branch is put back');
  }
  try {
    const current = await findGist(ctx.db, gist.id);
    if (current) await setHead(dir, current.head_sha);
  } catch (err) {
    ctx.log.warn({ err, gist: gist.id }, 'gist branch not put back; the next git request will');
  }
  return outcome;
}
