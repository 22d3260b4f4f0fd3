// The OAuth apps every hublet knows without registration, as GitHub Enterprise Server knows GitHub CLI's: gh's own
// client id (public in gh's source, internal/authflow/flow.go) so `gh auth login` works unchanged, and hublet's CLI for
// `hublet auth login`. Both are public clients: they use the device flow, which needs no client secret.
export interface BuiltinApp {
  clientId: string;
  name: string;
  homepageUrl: string;
  /** Where the web application flow may send the code back (gh listens on a loopback port of its own). */
  callbackUrl: string;
}

export const GH_CLIENT_ID = '178c6fc778ccc68e1d6a';
export const HUBLET_CLI_CLIENT_ID = 'hublet-cli';

export const BUILTIN_APPS: readonly BuiltinApp[] = Object.freeze([
  // gh's web-flow fallback listens on a loopback port of its own: any loopback address, port and path is its callback.
  { clientId: GH_CLIENT_ID, name: 'GitHub CLI', homepageUrl: 'https://cli.github.com/', callbackUrl: 'http://127.0.0.1/' },
  {
    clientId: HUBLET_CLI_CLIENT_ID,
    name: 'hublet CLI',
    homepageUrl: 'https://github.com/hublet',
    callbackUrl: 'http://127.0.0.1/callback',
  },
]);
