// `hublet gist edit ID`: replace files by base name, add and remove files, change the description; one new revision.
import type { Command } from 'commander';
import type { Client } from '../../client.js';
import type { IO } from '../../io.js';
import { CliExit, EXIT, expectOk, printJson } from '../../output.js';
import { repeatable } from '../option-values.js';
import { withClient, type Factory } from '../factory.js';
import { getGist, gistPath, readTextFile, type Gist } from './shared.js';

/** The command line's flags. */
interface EditFlags {
  add?: string[];
  remove?: string[];
  desc?: string;
}

interface EditOptions {
  client: Client;
  id: string;
  plan: Plan;
  json: boolean;
}

interface Plan {
  description?: string;
  replace: { filename: string; content: string }[];
  add: { filename: string; content: string }[];
  remove: string[];
}

/** Reads the named files and checks the command line alone (nothing to change, a name twice): exit 2. */
function editPlan(files: string[], opts: EditFlags): Plan {
  const plan: Plan = { description: opts.desc, replace: files.map(readTextFile), add: (opts.add ?? []).map(readTextFile), remove: opts.remove ?? [] };
  if (opts.desc === undefined && !files.length && !plan.add.length && !plan.remove.length) {
    throw new CliExit(EXIT.usage, 'hublet: nothing to change: name FILEs to replace, or use --add, --remove or --desc');
  }
  const seen = new Set<string>();
  for (const name of [...plan.replace.map((f) => f.filename), ...plan.add.map((f) => f.filename), ...plan.remove]) {
    if (seen.has(name)) throw new CliExit(EXIT.usage, `hublet: ${JSON.stringify(name)} is named twice`);
    seen.add(name);
  }
  return plan;
}

async function runEdit(opts: EditOptions, io: IO): Promise<void> {
  const { client, id, plan } = opts;
  const body: { description?: string; files?: Record<string, { content: string } | null> } = {};
  if (plan.description !== undefined) body.description = plan.description;
  if (plan.replace.length || plan.add.length || plan.remove.length) {
    const files: Record<string, { content: string } | null> = {};
    if (plan.replace.length || plan.add.length) {
      // A FILE replaces a file the gist has; --add adds one it has not: check, so a typo never adds or overwrites.
      const current = await getGist(client, id);
      for (const f of plan.replace) {
        if (!(f.filename in current.files)) throw new CliExit(EXIT.error, `hublet: gist ${current.id} has no file ${JSON.stringify(f.filename)} (use --add to add it)`);
      }
      for (const f of plan.add) {
        if (f.filename in current.files) throw new CliExit(EXIT.error, `hublet: gist ${current.id} already has a file ${JSON.stringify(f.filename)} (name it without --add to replace it)`);
      }
    }
    for (const f of [...plan.replace, ...plan.add]) files[f.filename] = { content: f.content };
    for (const name of plan.remove) files[name] = null;
    body.files = files;
  }
  const gist = expectOk(await client.request('PATCH', gistPath(id), { body })).body as Gist;
  if (opts.json) printJson(io.stdout, gist);
  else io.stdout.write(`updated gist ${gist.id}\n`);
}

export function registerEdit(gist: Command, f: Factory): void {
  gist
    .command('edit <id>')
    .description('change a gist: each FILE replaces the gist file of the same base name')
    .argument('[files...]', 'files whose content replaces the gist file of the same name')
    .option('-a, --add <file>', 'add a file (repeatable)', repeatable)
    .option('-r, --remove <name>', 'remove a file by name (repeatable)', repeatable)
    .option('-d, --desc <description>', 'new description')
    .action(async (id: string, files: string[], flags: EditFlags, command: Command) => {
      const plan = editPlan(files, flags);
      await withClient(command, f, (client, g) => runEdit({ client, id, plan, json: Boolean(g.json) }, f.io));
    });
}
