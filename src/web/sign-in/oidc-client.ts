// hublet as an OpenID Connect client (openid-client): the provider's configuration discovered once per server process
// (again after a failure), the authorization code flow with PKCE (S256), `state` and `nonce`, and the callback checked
// in full by the library: state, the issuer's `iss`, the code exchanged with the client secret, the ID token's
// signature (against the provider's published keys), issuer, audience, expiry and nonce. The provider's TLS is verified
// by Node's fetch (the system's CAs plus NODE_EXTRA_CA_CERTS); nothing here turns it off. Every failure becomes an
// OidcFailure of a few kinds the pages can explain.
import * as oidc from 'openid-client';
import type { Config } from '../../config.js';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What the browser must bring back: kept sealed in a cookie between the two requests (oidc-routes.ts). */
export interface FlowChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The person the provider vouched for; `profile` reads their username and verified email (ID token, then userinfo). */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  profile(): Promise<OidcProfile>;
}

interface OidcProfile {
  /** `preferred_username`, as sent (unchecked: it may be anything). */
  username: unknown;
  /** `email` when the provider says it is verified, else null. */
  email: string | null;
}

/**
 * Why a sign-in through the provider did not happen: `unreachable` (no answer, its TLS certificate not trusted, no
 * OpenID configuration), `refused` (the provider answered the authorization with an error, e.g. access_denied),
 * `rejected` (the provider refused the code: used, expired), `unverified` (the response failed a check).
 */
export class OidcFailure extends Error {
  constructor(
    readonly kind: 'unreachable' | 'refused' | 'rejected' | 'unverified',
    /** A short, safe explanation (no secret): an error code, a certificate problem, the provider's description. */
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${kind}: ${detail}`, options);
  }
}

/** The provider's name on the sign-in button and pages: HUBLET_OIDC_NAME, else the issuer's host. */
export function providerName(config: Pick<Config, 'oidcIssuer' | 'oidcName'>): string {
  return config.oidcName ?? (config.oidcIssuer ? new URL(config.oidcIssuer).host : 'the sign-in provider');
}

const SCOPES = 'openid profile email';
/** Seconds any one request to the provider may take. */
const REQUEST_TIMEOUT_SECONDS = 10;

/** A network error's own code (ECONNREFUSED, SELF_SIGNED_CERT_IN_CHAIN…), found along the error's causes. */
function networkCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && !code.startsWith('OAUTH_') && !code.startsWith('ERR_INVALID_ARG')) return code;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timed out';
  }
  return undefined;
}

/** A sentence for a failure to reach the provider. */
function unreachableDetail(err: unknown): string {
  const code = networkCode(err);
  if (code && /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME/.test(code))
    return `its TLS certificate is not trusted by this server (${code})`;
  if (code) return `no answer (${code})`;
  if (err instanceof Error && err.cause instanceof Response) return `it answered HTTP ${err.cause.status}`;
  return innermostMessage(err);
}

/** The message of the error at the end of the causes (the library's own wrapper says less: "invalid response encountered"). */
function innermostMessage(err: unknown): string {
  let innermost = err;
  while (innermost instanceof Error && innermost.cause instanceof Error) innermost = innermost.cause;
  return innermost instanceof Error ? innermost.message : String(err);
}

/** Whether the error says the provider could not be reached at all (rather than answering something hublet refused). */
function isNetworkError(err: unknown): boolean {
  return (err instanceof TypeError && networkCode(err) !== undefined) || networkCode(err) === 'timed out';
}

/** The library's errors from the callback, as an OidcFailure. */
function callbackFailure(err: unknown): OidcFailure {
  if (err instanceof oidc.AuthorizationResponseError)
    return new OidcFailure('refused', err.error_description ? `${err.error}: ${err.error_description}` : err.error, { cause: err });
  if (err instanceof oidc.ResponseBodyError)
    return new OidcFailure('rejected', err.error_description ? `${err.error}: ${err.error_description}` : err.error, { cause: err });
  if (isNetworkError(err)) return new OidcFailure('unreachable', unreachableDetail(err), { cause: err });
  return new OidcFailure('unverified', innermostMessage(err), { cause: err });
}

function emailIfVerified(claims: Record<string, unknown>): string | null {
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  return verified && typeof claims.email === 'string' ? claims.email : null;
}

export class OidcClient {
  private discovered: Promise<oidc.Configuration> | undefined;

  constructor(private readonly settings: OidcSettings) {}

  /** The issuer URL as configured (HUBLET_OIDC_ISSUER). */
  get issuer(): string {
    return this.settings.issuer;
  }

  /** The provider's configuration: discovered at the first sign-in, kept while it works, asked again after a failure. */
  private configuration(): Promise<oidc.Configuration> {
    if (this.discovered) return this.discovered;
    const { issuer, clientId, clientSecret } = this.settings;
    const execute = [oidc.enableNonRepudiationChecks];
    // An http:// issuer is the operator's explicit choice (a provider on a private network); https is verified as always.
    if (new URL(issuer).protocol === 'http:') execute.push(oidc.allowInsecureRequests);
    const attempt = oidc.discovery(new URL(issuer), clientId, undefined, oidc.ClientSecretBasic(clientSecret), {
      timeout: REQUEST_TIMEOUT_SECONDS,
      execute,
    });
    this.discovered = attempt;
    attempt.catch(() => {
      if (this.discovered === attempt) this.discovered = undefined;
    });
    return attempt;
  }

  private async configured(): Promise<oidc.Configuration> {
    try {
      return await this.configuration();
    } catch (err) {
      throw new OidcFailure('unreachable', unreachableDetail(err), { cause: err });
    }
  }

  /** Where to send the browser to sign in, and the checks its return must pass. */
  async start(redirectUri: string): Promise<{ url: URL; checks: FlowChecks }> {
    const config = await this.configured();
    const checks = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: SCOPES,
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url, checks };
  }

  /**
   * The callback: `callbackUrl` is the redirect URI with the query the provider sent. Verifies the response and the ID
   * token (throws OidcFailure), and answers who signed in.
   */
  async finish(callbackUrl: URL, checks: FlowChecks): Promise<VerifiedIdentity> {
    const config = await this.configured();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
      });
    } catch (err) {
      throw callbackFailure(err);
    }
    const claims = tokens.claims();
    if (!claims) throw new OidcFailure('unverified', 'the provider sent no ID token');
    const idClaims = claims as Record<string, unknown>;
    return {
      issuer: config.serverMetadata().issuer,
      subject: claims.sub,
      profile: async () => {
        // Providers put the profile in the ID token, or (as the spec prefers) only at the userinfo endpoint.
        let info: Record<string, unknown> = {};
        const incomplete = idClaims.preferred_username === undefined || idClaims.email === undefined;
        if (incomplete && config.serverMetadata().userinfo_endpoint) {
          try {
            info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
          } catch (err) {
            throw callbackFailure(err);
          }
        }
        return {
          username: idClaims.preferred_username ?? info.preferred_username,
          // The address and whether it is verified from one source.
          email: emailIfVerified(idClaims.email !== undefined ? idClaims : info),
        };
      },
    };
  }
}
