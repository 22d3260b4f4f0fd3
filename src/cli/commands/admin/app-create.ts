// `hublet admin app create NAME --callback-url URL`: registers an OAuth app owned by the site (POST /admin/oauth-apps);
// prints its client id and client secret (the secret is shown this once), or `{"client_id","client_secret"}` with --json.
import type { Command } from 'commander';
import type { IO } from '../../io.js';
import { expectOk, printJson } from '../../output.js';
import { withExamples } from '../examples.js';
import { withClient, type ClientOptions, type Factory } from '../factory.js';

interface AppCreateOptions extends ClientOptions {
  name: string;
  callbackUrl: string;
  homepageUrl?: string;
  description?: string;
}

async function runAppCreate(opts: AppCreateOptions, io: IO): Promise<void> {
  const res = expectOk(
    await opts.client.request('POST', '/admin/oauth-apps', {
      body: { name: opts.name, callback_url: opts.callbackUrl, homepage_url: opts.homepageUrl, description: opts.description },
    }),
  );
  const app = res.body as { client_id: string; client_secret: string };
  if (opts.json) printJson(io.stdout, { client_id: app.client_id, client_secret: app.client_secret });
  else io.stdout.write(`Client ID: ${app.client_id}\nClient secret: ${app.client_secret}\n`);
}

export function registerAppCreate(app: Command, f: Factory): void {
  withExamples(
    app
      .command('create')
      .description('register an OAuth app for the web application flow; prints its client id and client secret (shown once)'),
    [
      'hublet admin app create "Team dashboard" --callback-url https://dash.example.com/auth/callback',
      'hublet admin app create notes --callback-url http://127.0.0.1/callback --homepage-url https://notes.example.com --json',
    ],
  )
    .argument('<name>', "the app's name, shown to people on the consent page")
    .requiredOption('--callback-url <url>', 'where codes are sent back (a redirect_uri must be this URL or below it)')
    .option('--homepage-url <url>', "the app's homepage")
    .option('--description <text>', 'what the app does, shown to people who authorize it')
    .action(async (name: string, flags: { callbackUrl: string; homepageUrl?: string; description?: string }, command: Command) =>
      withClient(command, f, (c) => runAppCreate({ ...c, name, ...flags }, f.io)),
    );
}
