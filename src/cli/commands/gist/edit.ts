// `hublet gist edit ID`: replace files by base name, add and remove files, change the description; one new revision.
// With no file and no --add/--remove/--desc (or with --filename), it opens an editor on one file of the gist, as gh's
// does (editor.ts finds which), and saves what was written there. The edited copy is never lost: if the gist's file
// changed meanwhile, or the API refuses the change, it stays where the editor left it and the command says where.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { repeatable } from '../option-values.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';
import { editDraft, editorCommand } from './editor.js';
import { asText, BASE64, fileBytes, getGist, gistPath, readTextFile, sortedNames, type Gist } from './shared.js';

/** The command line's flags. */
interface EditFlags {
  add?: string[];
  remove?: string[];
  desc?: string;
  filename?: string;
}

interface EditOptions extends ClientOptions {
  id: string;
  plan: Plan;
  /** Where the editor is found (HUBLET_EDITOR, GIT_EDITOR, VISUAL, EDITOR), and its environment. */
  env: NodeJS.ProcessEnv;
}

interface Plan {
  description?: string;
  replace: { filename: string; content: string }[];
  add: { filename: string; content: string }[];
  remove: string[];
  /** Open the editor (on this file, or on the gist's only or first one). */
  editor?: { filename?: string };
}

/** Reads the named files and checks the command line alone (a name twice, --filename with files): exit 2. */
function editPlan(files: string[], opts: EditFlags): Plan {
  const plan: Plan = {
    description: opts.desc,
    replace: files.map(readTextFile),
    add: (opts.add ?? []).map(readTextFile),
    remove: opts.remove ?? [],
  };
  const changesFiles = plan.replace.length || plan.add.length || plan.remove.length;
  if (opts.filename !== undefined) {
    if (changesFiles)
      throw new CliExit(
        EXIT.usage,
        'hublet: --filename picks the file to change in your editor; it does not go with FILEs, --add or --remove',
      );
    plan.editor = { filename: opts.filename };
  } else if (!changesFiles && opts.desc === undefined) {
    plan.editor = {};
  }
  const seen = new Set<string>();
  for (const name of [...plan.replace.map((f) => f.filename), ...plan.add.map((f) => f.filename), ...plan.remove]) {
    if (seen.has(name)) throw new CliExit(EXIT.usage, `hublet: ${JSON.stringify(name)} is named twice`);
    seen.add(name);
  }
  return plan;
}

type Body = { description?: string; files?: Record<string, { content: string } | null> };

async function filesBody(client: Client, id: string, plan: Plan): Promise<Body['files']> {
  if (!plan.replace.length && !plan.add.length && !plan.remove.length) return undefined;
  const files: Record<string, { content: string } | null> = {};
  if (plan.replace.length || plan.add.length) {
    // A FILE replaces a file the gist has; --add adds one it has not: check, so a typo never adds or overwrites.
    const current = await getGist(client, id);
    for (const f of plan.replace) {
      if (!(f.filename in current.files))
        throw new CliExit(EXIT.error, `hublet: gist ${current.id} has no file ${JSON.stringify(f.filename)} (use --add to add it)`);
    }
    for (const f of plan.add) {
      if (f.filename in current.files)
        throw new CliExit(
          EXIT.error,
          `hublet: gist ${current.id} already has a file ${JSON.stringify(f.filename)} (name it without --add to replace it)`,
        );
    }
  }
  for (const f of [...plan.replace, ...plan.add]) files[f.filename] = { content: f.content };
  for (const name of plan.remove) files[name] = null;
  return files;
}

/** The gist's file as its exact bytes (base64 from the API, whole beyond 1 MiB). */
async function currentBytes(client: Client, id: string, filename: string): Promise<{ gist: Gist; bytes: Buffer | undefined }> {
  const gist = expectOk(await client.request('GET', gistPath(id), { headers: BASE64 })).body as Gist;
  const file = gist.files[filename];
  return { gist, bytes: file ? await fileBytes(client, gist, file) : undefined };
}

/** Opens the editor on one file; the body that saves what was written (undefined: nothing changed). */
async function editorBody(opts: EditOptions, io: IO): Promise<{ body: Body; kept: () => string; done: () => void } | undefined> {
  const { client, id, plan } = opts;
  const gist = expectOk(await client.request('GET', gistPath(id), { headers: BASE64 })).body as Gist;
  const names = sortedNames(gist.files);
  const filename = plan.editor?.filename ?? names[0];
  if (filename === undefined || !(filename in gist.files))
    throw new CliExit(EXIT.error, `hublet: gist ${gist.id} has no file ${JSON.stringify(filename ?? '')}`);
  if (plan.editor?.filename === undefined && names.length > 1) {
    io.stderr.write(
      `hublet: gist ${gist.id} has ${names.length} files; editing ${filename} (choose another with --filename: ${names.join(', ')})\n`,
    );
  }
  const before = await fileBytes(client, gist, gist.files[filename]);
  if (asText(before) === undefined)
    throw new CliExit(EXIT.error, `hublet: ${filename} is binary; the editor takes text (clone the gist and change it with git)`);
  const draft = await editDraft({ editor: editorCommand(opts.env), filename, content: before, env: opts.env }, io);
  const after = draft.read();
  const text = asText(after);
  if (text === undefined) {
    throw new CliExit(
      EXIT.error,
      `hublet: the edited ${filename} is not UTF-8 text; the gist is unchanged (your edit is kept in ${draft.file})`,
    );
  }
  const body: Body = {};
  if (plan.description !== undefined) body.description = plan.description;
  if (!after.equals(before)) {
    // Saving over a change someone made while the editor was open would lose it: refuse, and keep this edit.
    const now = await currentBytes(client, id, filename);
    if (!now.bytes?.equals(before)) {
      throw new CliExit(
        EXIT.error,
        `hublet: ${filename} of gist ${gist.id} changed while you edited it; not saved (your edit is kept in ${draft.file})`,
      );
    }
    body.files = { [filename]: { content: text } };
  }
  if (!body.files && body.description === undefined) {
    draft.remove();
    io.stderr.write(`hublet: no change to ${filename}; gist ${gist.id} not updated\n`);
    return undefined;
  }
  return { body, kept: () => draft.file, done: () => draft.remove() };
}

export async function runEdit(opts: EditOptions, io: IO): Promise<void> {
  const { client, id, plan } = opts;
  let body: Body = {};
  let draft: { kept: () => string; done: () => void } | undefined;
  if (plan.editor) {
    const edited = await editorBody(opts, io);
    if (!edited) return;
    ({ body } = edited);
    draft = edited;
  } else {
    if (plan.description !== undefined) body.description = plan.description;
    const files = await filesBody(client, id, plan);
    if (files) body.files = files;
  }
  let gist: Gist;
  try {
    gist = expectOk(await client.request('PATCH', gistPath(id), { body })).body as Gist;
  } catch (err) {
    // Not saved: the edit stays in its file, and the command says where.
    if (draft && err instanceof CliExit) throw new CliExit(err.code, `${err.message}\nhint: your edit is kept in ${draft.kept()}`);
    throw err;
  }
  draft?.done();
  if (opts.json) printJson(io.stdout, gist);
  else io.stdout.write(`updated gist ${gist.id}\n`);
}

export function registerEdit(gist: Command, f: Factory): void {
  withExamples(
    gist
      .command('edit')
      .description('change a gist: each FILE replaces the gist file of the same base name; with nothing to change, opens your editor')
      .argument('<id>', 'the gist: its id or URL')
      .argument('[files...]', 'files whose content replaces the gist file of the same name')
      .option('-a, --add <file>', 'add a file (repeatable)', repeatable)
      .option('-r, --remove <name>', 'remove a file by name (repeatable)', repeatable)
      .option('-d, --desc <description>', 'new description')
      .option('-f, --filename <name>', 'the file to change in your editor (default: the only, or first, file)')
      .addHelpText('after', '\nThe editor is $HUBLET_EDITOR, else $GIT_EDITOR, $VISUAL, $EDITOR, else nano (gh looks in the same order).'),
    [
      "# change the gist's file in your editor (the first one, if it has several)",
      'hublet gist edit ID',
      'hublet gist edit ID --filename notes.md',
      '# replace notes.md with the local file, add new.txt, remove old.txt, set the description',
      'hublet gist edit ID notes.md --add new.txt --remove old.txt --desc "new description"',
    ],
  ).action(async (id: string, files: string[], flags: EditFlags, command: Command) => {
    const plan = editPlan(files, flags);
    await withClient(command, f, (c) => runEdit({ ...c, id, plan, env: f.env }, f.io));
  });
}
