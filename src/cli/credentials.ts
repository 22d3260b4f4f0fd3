// Remote-mode credentials saved by `hublet auth login`: one JSON file in the platform config dir, mode 0600.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Credentials {
  server: string;
  token: string;
  login?: string;
}

export function credentialsPath(env: NodeJS.ProcessEnv): string {
  const dir =
    env.HUBLET_CONFIG_DIR ??
    (process.platform === 'darwin'
      ? path.join(os.homedir(), 'Library', 'Preferences', 'hublet')
      : path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'hublet'));
  return path.join(dir, 'credentials.json');
}

export function readCredentials(env: NodeJS.ProcessEnv): Credentials | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(credentialsPath(env), 'utf8')) as Credentials;
    return parsed.server && parsed.token ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function writeCredentials(creds: Credentials, env: NodeJS.ProcessEnv): string {
  const file = credentialsPath(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
  fs.chmodSync(file, 0o600);
  return file;
}

export function removeCredentials(env: NodeJS.ProcessEnv): boolean {
  try {
    fs.unlinkSync(credentialsPath(env));
    return true;
  } catch {
    return false;
  }
}
