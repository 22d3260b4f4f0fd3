// GitHub's header names on deliveries (the site-wide `hookGithubHeaders` setting): stock receivers such as
// @octokit/webhooks' createNodeMiddleware and Probot refuse a delivery without `X-GitHub-Event` and `X-GitHub-Delivery`.

const OURS = 'X-Service-';

/** The headers with each `X-Service-*` one also under GitHub's name (`X-GitHub-*`, same value) when `on`; unchanged otherwise. */
export function withGithubNames(headers: Record<string, string>, on: boolean): Record<string, string> {
  if (!on) return headers;
  const out = { ...headers };
  for (const [name, value] of Object.entries(headers)) if (name.startsWith(OURS)) out[`X-GitHub-${name.slice(OURS.length)}`] = value;
  return out;
}
