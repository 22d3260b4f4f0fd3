// The sign-in settings of the configuration (config.ts): sign-up, password sign-in, OpenID Connect single sign-on and
// the OAuth device flow's code lifetime, the password hash's cost. Checked once at start; the client secret is never echoed in a problem.

export interface SignInSettings {
  /** `off` (the default): accounts are made by site admins; `open`: anyone at /signup; `invite`: with an invitation link. */
  signup: 'off' | 'open' | 'invite';
  /** Sign-in with a password on the web (HUBLET_PASSWORD_SIGNIN=0 leaves single sign-on only). */
  passwordSignIn: boolean;
  /** The OpenID provider's issuer URL (discovery at `<issuer>/.well-known/openid-configuration`); unset: no single sign-on. */
  oidcIssuer?: string;
  oidcClientId?: string;
  oidcClientSecret?: string;
  /** Create an account on the first single sign-on of someone unknown (login from `preferred_username`). */
  oidcAutoCreate: boolean;
  /** The provider's name on the sign-in button ("Sign in with NAME"); default: the issuer's host. */
  oidcName?: string;
  /** Seconds a device flow's codes stay valid (GitHub: 900). */
  deviceCodeTtlSeconds: number;
  /**
   * scrypt's cost for new password hashes, as log2 N (17: OWASP's 128 MiB; r=8, p=1 always). Stored hashes keep their
   * own, so a change applies to passwords set from then on. Lower only where hashing time matters more than strength
   * (the test suite runs at 14).
   */
  passwordCost: number;
}

type Pick = (key: keyof SignInSettings) => string | undefined;
type Integer = (key: keyof SignInSettings, fallback: number, min: number, max: number) => number;

function flag(pick: Pick, key: keyof SignInSettings, fallback: boolean, env: string, problems: string[]): boolean {
  const raw = pick(key);
  if (raw === undefined) return fallback;
  if (!['0', '1', 'true', 'false'].includes(raw)) problems.push(`${key} (${env}): expected 1 or 0`);
  return raw === '1' || raw === 'true';
}

export function signInSettings(
  pick: Pick,
  integer: Integer,
  env: Record<keyof SignInSettings, string>,
  problems: string[],
): SignInSettings {
  const signup = pick('signup') ?? 'off';
  if (signup !== 'off' && signup !== 'open' && signup !== 'invite')
    problems.push(`signup (${env.signup}): expected off, open or invite, got ${JSON.stringify(signup)}`);
  const oidcIssuer = pick('oidcIssuer');
  const oidcClientId = pick('oidcClientId');
  const oidcClientSecret = pick('oidcClientSecret');
  if (oidcIssuer !== undefined) {
    let u: URL | undefined;
    try {
      u = new URL(oidcIssuer);
    } catch {
      // reported below
    }
    if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:'))
      problems.push(`oidcIssuer (${env.oidcIssuer}): expected the provider's issuer URL, e.g. https://keycloak.example.com/realms/team`);
    if (oidcClientId === undefined) problems.push(`oidcClientId (${env.oidcClientId}): required with ${env.oidcIssuer}`);
    if (oidcClientSecret === undefined) problems.push(`oidcClientSecret (${env.oidcClientSecret}): required with ${env.oidcIssuer}`);
  } else if (oidcClientId !== undefined || oidcClientSecret !== undefined) {
    problems.push(`oidcIssuer (${env.oidcIssuer}): required with ${env.oidcClientId} and ${env.oidcClientSecret}`);
  }
  const passwordSignIn = flag(pick, 'passwordSignIn', true, env.passwordSignIn, problems);
  return {
    signup: signup as SignInSettings['signup'],
    passwordSignIn,
    oidcIssuer,
    oidcClientId,
    oidcClientSecret,
    oidcAutoCreate: flag(pick, 'oidcAutoCreate', false, env.oidcAutoCreate, problems),
    oidcName: pick('oidcName'),
    deviceCodeTtlSeconds: integer('deviceCodeTtlSeconds', 900, 10, 86_400),
    passwordCost: integer('passwordCost', 17, 12, 20),
  };
}
