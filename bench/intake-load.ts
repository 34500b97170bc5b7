// The load generator of bench:intake, in its own process so it does not share the server's event
// loop: posts unique events (signed when a secret is given) and sends autocannon's result back.
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { signatureHeader } from '../src/language/net/verify-signature';

const [url, secret, duration, connections] = process.argv.slice(2);

autocannon(
  {
    url,
    method: 'POST',
    connections: Number(connections),
    duration: Number(duration),
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => {
          const body = JSON.stringify({
            id: `evt_${randomUUID()}`,
            type: 'contact.updated',
            createdAt: new Date().toISOString(),
            data: { id: randomUUID(), name: 'Bench', phone: '5511999999999', tags: [] },
          });
          const headers = {
            ...req.headers,
            ...(secret !== '-' ? { 'x-service-signature': signatureHeader(secret, body) } : {}),
          };
          return { ...req, body, headers };
        },
      },
    ],
  },
  (err, result) => {
    process.send!(err ? { error: String(err) } : result, () => process.exit(0));
  },
);
