// After a `git push` to a gist: the pushed commits become revisions and the pushed tree becomes the current file rows.
import type { UserRow } from '../db/schema.js';
import type { RefUpdate } from '../git/bare.js';
import type { ServiceContext } from '../server/context.js';
import { changeStatus, type SnapshotFile } from './diffstat.js';
import { GIST_REF, firstParentChain, gistRepoDir, readBlob, readTreeEntries, setHead } from './git.js';
import { advanceHead, deleteRevisionsFrom, fileMetas, findGist, insertRevisions, revisionsOf } from './store.js';
import type { GistRevisionRow, GistRow } from './tables.js';
import { fileRow, replaceFileRows } from './write.js';

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
