// Shared by the `hublet migration …` CLI tests: an in-process CLI server where mona owns `mine` and, in octo-org, `alpha`,
// each with real git history.
import { type InProcessCliServer, startInProcessCliServer } from '../helpers/cli-inprocess.js';
import { repoWithHistory } from './support.js';

export async function cliServerWithMonasRepos(): Promise<{ cli: InProcessCliServer; mona: { token: string } }> {
  const cli = await startInProcessCliServer();
  try {
    const s = cli.server;
    const mona = await s.userWithToken('mona', ['repo', 'admin:org', 'user']);
    await s.createOrg('octo-org', 'mona');
    await repoWithHistory(s, mona.token, { org: 'octo-org' }, 'alpha');
    await repoWithHistory(s, mona.token, {}, 'mine');
    return { cli, mona };
  } catch (e) {
    await cli.close();
    throw e;
  }
}
