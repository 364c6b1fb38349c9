// Baseline for `GET /api/v1/account`: a bare `node:http` server answering the very JSON body the
// portal sent for the bench user (read once from BODY_FILE), with no sign-in check and no query.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env.BODY_FILE);
createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
