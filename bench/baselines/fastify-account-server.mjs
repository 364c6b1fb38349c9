// Baseline for `GET /api/v1/account` (decision 185): the framework's floor for a signed-in read.
// Fastify, as the portal, without what the portal adds to it (request line, answer check against
// the contract, the principal's database look-up): the same security headers in an `onRequest`
// hook, the bearer token looked up in an in-memory Map in a second `onRequest` hook (401
// otherwise, as the portal answers), and the very JSON the portal sent for the bench user (read
// once from BODY_FILE), serialised by Fastify on every request. TOKEN is the bench user's token.
//
// The six headers the portal sets on every API answer (server/src/plugins/security-headers.ts,
// API_HEADERS; checked against a real answer in bench/src/scenarios/health.ts):
//   cache-control: no-store
//   content-security-policy: default-src 'none'; frame-ancestors 'none'
//   cross-origin-resource-policy: same-origin
//   referrer-policy: no-referrer
//   x-content-type-options: nosniff
//   x-frame-options: DENY
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const API_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

const account = JSON.parse(readFileSync(process.env.BODY_FILE, 'utf8'));
/** Token → the answer of its account: the whole "session store". */
const sessions = new Map([[process.env.TOKEN, account]]);

const app = Fastify({ logger: false });
app.decorateRequest('account', null);
app.addHook('onRequest', (_request, reply, done) => {
  reply.headers(API_HEADERS);
  done();
});
app.addHook('onRequest', (request, reply, done) => {
  const header = request.headers.authorization;
  const found = header?.startsWith('Bearer ') ? sessions.get(header.slice(7)) : undefined;
  if (!found) {
    reply.code(401).send({ message: 'Bitte melden Sie sich an.' });
    return;
  }
  request.account = found;
  done();
});
app.get('/api/v1/account', (request) => request.account);
// Any other path (the bench's readiness probe asks for `/`) passes the same hooks.
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
