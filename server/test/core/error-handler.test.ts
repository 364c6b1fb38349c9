import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import { z } from 'zod';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idParamsSchema } from '@gremienportal/contracts/common';
import { registerErrorHandler } from '../../src/plugins/error-handler.ts';
import {
  AppError,
  forbidden,
  GERMAN,
  invalidField,
  notFound,
  STATUS_BY_CODE,
  unauthenticated,
  type ErrorCode,
} from '../../src/errors.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';

/** The error handler on its own: a bare app whose routes fail in every way a feature can. */
describe('error handler', () => {
  let app: FastifyInstance;
  const logLines: string[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const api = Fastify({
      loggerInstance: pino({ level: 'error' }, stream) as FastifyBaseLogger,
    }).withTypeProvider<ZodTypeProvider>();
    api.setValidatorCompiler(validatorCompiler);
    api.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(api);

    api.get('/codes/:code', async (request) => {
      const { code } = request.params as { code: ErrorCode };
      throw new AppError(code, `Fehlertext für ${code}`);
    });
    api.get('/throttled', async () => {
      throw new AppError('too_many_requests', 'Bitte warten.', undefined, { 'Retry-After': '42' });
    });
    api.get('/field', async () => {
      throw invalidField('email', 'Diese E-Mail-Adresse wird bereits verwendet.');
    });
    api.get('/helpers/:which', async (request) => {
      const { which } = request.params as { which: string };
      throw { notFound: notFound(), forbidden: forbidden(), unauthenticated: unauthenticated() }[which];
    });
    api.post(
      '/validated',
      {
        schema: {
          body: z.object({
            name: z.string({ error: 'Name ist erforderlich.' }).min(3, { error: 'Name ist zu kurz.' }),
            address: z.object({ zip: z.string().regex(/^\d{5}$/, { error: 'Postleitzahl ungültig.' }) }),
          }),
        },
      },
      async () => ({ ok: true }),
    );
    api.get('/items/:id', { schema: { params: idParamsSchema } }, async () => ({ ok: true }));
    api.get(
      '/list',
      {
        schema: {
          querystring: z.object({ page: z.coerce.number({ error: 'Seite ungültig.' }).int().positive() }),
        },
      },
      async () => ({ ok: true }),
    );
    api.get('/boom', async () => {
      throw new Error('interne Einzelheit, die niemand sehen soll');
    });
    api.get('/syntax', async () => {
      throw new SyntaxError('Unexpected token');
    });
    api.get('/disk-full', async () => {
      throw Object.assign(new Error('write failed'), { code: 'ENOSPC' });
    });
    api.get('/status/:status', async (request) => {
      const { status } = request.params as { status: string };
      throw Object.assign(new Error('plugin error'), { statusCode: Number(status) });
    });
    api.get('/too-large', async () => {
      throw Object.assign(new Error('file too large'), { statusCode: 413, code: 'FST_REQ_FILE_TOO_LARGE' });
    });
    await api.ready();
    app = api;
  });
  afterAll(() => app.close());

  it('maps every error code to its status and keeps the German message', async () => {
    for (const [code, status] of Object.entries(STATUS_BY_CODE)) {
      const res = await app.inject({ method: 'GET', url: `/codes/${code}` });
      expect({ code, status: res.statusCode }).toEqual({ code, status });
      expect(res.json()).toEqual({ message: `Fehlertext für ${code}` });
    }
  });

  it('sends the headers an AppError carries', async () => {
    const res = await app.inject({ method: 'GET', url: '/throttled' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('42');
    expect(res.json()).toEqual({ message: 'Bitte warten.' });
  });

  it('answers a field error as 422 with the errors map', async () => {
    const res = await app.inject({ method: 'GET', url: '/field' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Diese E-Mail-Adresse wird bereits verwendet.',
      errors: { email: ['Diese E-Mail-Adresse wird bereits verwendet.'] },
    });
  });

  it('gives the helpers their German default messages', async () => {
    const expected = {
      notFound: [404, GERMAN.notFound],
      forbidden: [403, GERMAN.forbidden],
      unauthenticated: [401, GERMAN.unauthenticated],
    } as const;
    for (const [which, [status, message]] of Object.entries(expected)) {
      const res = await app.inject({ method: 'GET', url: `/helpers/${which}` });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ message });
    }
  });

  it('turns body validation failures into 422 with one entry per field, nested ones dotted', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/validated',
      payload: { name: 'Al', address: { zip: 'abc' } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: GERMAN.validation,
      errors: { name: ['Name ist zu kurz.'], 'address.zip': ['Postleitzahl ungültig.'] },
    });
  });

  it('answers a body that is no object at all with 400', async () => {
    for (const payload of ['[]', '"text"', '42', 'null']) {
      const res = await app.inject({
        method: 'POST',
        url: '/validated',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
      expect(res.json()).toEqual({ message: GERMAN.badRequest });
    }
  });

  it('answers body parser failures in German', async () => {
    const cases = [
      { payload: '{"name":', type: 'application/json', status: 400, message: GERMAN.badJson },
      { payload: '', type: 'application/json', status: 400, message: GERMAN.emptyJson },
      { payload: '{"__proto__": {"x": 1}}', type: 'application/json', status: 400, message: GERMAN.badJson },
      { payload: '<a/>', type: 'application/xml', status: 415, message: GERMAN.unsupportedMediaType },
    ];
    for (const c of cases) {
      const res = await app.inject({
        method: 'POST',
        url: '/validated',
        payload: c.payload,
        headers: { 'content-type': c.type },
      });
      expect({ payload: c.payload, status: res.statusCode }).toEqual({
        payload: c.payload,
        status: c.status,
      });
      expect(res.json()).toEqual({ message: c.message });
    }
  });

  it('answers a malformed id in the path with 404, as a thing that does not exist', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await app.inject({ method: 'GET', url: `/items/${id}` });
      expect({ id, status: res.statusCode }).toEqual({ id, status: 404 });
      expect(res.json()).toEqual({ message: GERMAN.notFound });
    }
    expect((await app.inject({ method: 'GET', url: '/items/7' })).statusCode).toBe(200);
  });

  it('answers a bad query string with 422 under the parameter', async () => {
    const res = await app.inject({ method: 'GET', url: '/list?page=null' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: GERMAN.validation, errors: { page: ['Seite ungültig.'] } });
  });

  it('hides unexpected errors behind a German 500 and logs them', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: GERMAN.internal });
    expect(res.body).not.toContain('interne Einzelheit');
    const logged = logLines.map((line) => JSON.parse(line));
    expect(
      logged.some((line) => line.msg === 'Unerwarteter Fehler' && line.err?.message?.includes('interne')),
    ).toBe(true);
  });

  it('answers a stray SyntaxError as bad JSON and a full disk as 507', async () => {
    const syntax = await app.inject({ method: 'GET', url: '/syntax' });
    expect(syntax.statusCode).toBe(400);
    expect(syntax.json()).toEqual({ message: GERMAN.badJson });
    const full = await app.inject({ method: 'GET', url: '/disk-full' });
    expect(full.statusCode).toBe(507);
    expect(full.json()).toEqual({ message: GERMAN.insufficientStorage });
  });

  it('gives plugin errors with a 4xx status a German message by status or code', async () => {
    const expected: Record<number, string> = {
      401: GERMAN.unauthenticated,
      403: GERMAN.forbidden,
      404: GERMAN.notFound,
      405: GERMAN.methodNotAllowed,
      413: GERMAN.tooLarge,
      415: GERMAN.unsupportedMediaType,
      429: GERMAN.tooManyRequests,
      // A status without its own text still gets a German one.
      409: GERMAN.badRequest,
    };
    for (const [status, message] of Object.entries(expected)) {
      const res = await app.inject({ method: 'GET', url: `/status/${status}` });
      expect(res.statusCode).toBe(Number(status));
      expect(res.json()).toEqual({ message });
    }
    const tooLarge = await app.inject({ method: 'GET', url: '/too-large' });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({ message: GERMAN.tooLarge });
  });
});

describe('error handler in the assembled app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers unknown API paths and methods with a German 404', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/gibt-es-nicht'],
      ['DELETE', '/api/v1/health'],
      ['POST', '/api/v2/auth/login'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: GERMAN.notFound });
    }
  });
});
