// Single sign-on with OpenID Connect (openid-client): the authorization code flow with PKCE (S256),
// `state` and `nonce` checked by the library on the way back, the ID token's signature, issuer,
// audience and expiry checked against the provider's discovery document and keys. What the
// browser carries between the two legs (state, nonce, PKCE verifier) is an HMAC-signed cookie
// bound to the console (oidc-pending.ts); the role comes from the claims (admin-auth/oidc-roles.ts).
import { Inject, Injectable, Logger } from '@nestjs/common';
import * as oidc from 'openid-client';
import { roleFromClaims } from '../../roles/oidc-roles';
import type { Role } from '../../roles/roles';
import { APP_CONFIG, type AppConfig, type OidcConfig } from '../../../runtime/config/app-config';
import type { OidcPending } from './oidc-pending';

export interface OidcIdentity {
  /** `<issuer> <sub>`: what the users row is keyed by. */
  subject: string;
  email: string;
  displayName: string;
  role: Role | undefined;
}

@Injectable()
export class OidcSignIn {
  private readonly logger = new Logger(OidcSignIn.name);
  private readonly oidc?: OidcConfig;
  private discovered?: Promise<oidc.Configuration>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.oidc = config.access.oidc;
  }

  get enabled(): boolean {
    return this.oidc !== undefined;
  }

  /** Where to send the browser, and what to keep for its return. */
  async start(redirectUri: string): Promise<{ url: string; pending: OidcPending }> {
    const configuration = await this.configuration();
    const verifier = oidc.randomPKCECodeVerifier();
    const pending: OidcPending = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier,
      redirectUri,
    };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.oidc!.scopes,
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, pending };
  }

  /** The callback's URL (with code and state) checked and exchanged; throws when anything does not match. */
  async finish(callbackUrl: URL, pending: OidcPending): Promise<OidcIdentity> {
    const configuration = await this.configuration();
    const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    let claims: Record<string, unknown> = { ...tokens.claims()! };
    if (claims[this.oidc!.roles.claim] === undefined || claims.email === undefined) {
      // Some providers put groups or the email only in the userinfo answer.
      const info = await oidc.fetchUserInfo(configuration, tokens.access_token, String(claims.sub));
      claims = { ...info, ...claims };
    }
    const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : '';
    if (!email) throw new Error('the provider sent no email claim (scope "email")');
    const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : email;
    return {
      subject: `${this.oidc!.issuer} ${String(claims.sub)}`,
      email,
      displayName: name.slice(0, 200),
      role: roleFromClaims(claims, this.oidc!.roles),
    };
  }

  /** The provider's discovery document, fetched once (again after a failure). */
  private configuration(): Promise<oidc.Configuration> {
    const o = this.oidc!;
    this.discovered ??= oidc
      .discovery(
        new URL(o.issuer),
        o.clientId,
        o.clientSecret,
        o.clientSecret ? undefined : oidc.None(),
        o.allowHttpIssuer ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((err: Error) => {
        this.discovered = undefined;
        this.logger.warn(`OIDC discovery of ${o.issuer} failed: ${err.message}`);
        throw err;
      });
    return this.discovered;
  }
}
