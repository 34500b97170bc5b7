// A real OpenID Connect provider (oidc-provider, an ES module: run in its own process so jest need
// not load it) for the console's single sign-on tests. Two people: Vera in group crm-viewers,
// Otto in crm-operators. Its development login form takes the account id as "login" (any
// password) and asks for consent once. Usage: node oidc-provider-server.mjs <port> <redirect uri>;
// prints one JSON line {"issuer": ...} once it listens.
import process from 'node:process';
import Provider from 'oidc-provider';

const [port, redirectUri] = [Number(process.argv[2]), process.argv[3]];
const issuer = `http://127.0.0.1:${port}`;

const PEOPLE = {
  vera: {
    sub: 'vera',
    email: 'vera.viewer@example.test',
    email_verified: true,
    name: 'Vera Viewer',
    groups: ['crm-viewers'],
  },
  otto: {
    sub: 'otto',
    email: 'otto.operator@example.test',
    email_verified: true,
    name: 'Otto Operator',
    groups: ['crm-operators'],
  },
  nora: {
    sub: 'nora',
    email: 'nora@elsewhere.test',
    email_verified: true,
    name: 'Nora Nobody',
    groups: ['other'],
  },
};

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'crm-rules-console',
      client_secret: 'test-oidc-client-secret-0123456789',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  scopes: ['openid', 'email', 'profile', 'groups'],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
  findAccount: async (_ctx, id) =>
    PEOPLE[id] ? { accountId: id, claims: async () => PEOPLE[id] } : undefined,
  pkce: { required: () => true },
  cookies: { keys: ['oidc-test-cookie-key-0123456789abcdef'] },
  features: { devInteractions: { enabled: true } },
});
provider.proxy = false;

const server = provider.listen(port, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
