// Baseline for `GET /api/v1/health`: the least a Node HTTP server can do per request.
import { createServer } from 'node:http';

const body = JSON.stringify({ status: 'ok' });
createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
