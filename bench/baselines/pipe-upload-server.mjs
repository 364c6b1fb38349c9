// Baseline for uploads: a minimal Node server that pipes each request body into a file.
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

let counter = 0;
createServer(async (request, response) => {
  if (request.method !== 'POST') {
    response.writeHead(200).end('ok');
    return;
  }
  counter += 1;
  await pipeline(request, createWriteStream(join(process.env.UPLOAD_DIR, `upload-${counter}`)));
  response.writeHead(201, { 'content-type': 'application/json' }).end('{}');
}).listen(Number(process.env.PORT), '127.0.0.1');
