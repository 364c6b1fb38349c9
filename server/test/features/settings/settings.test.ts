import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers } from '../../support/factories.ts';
import { authPlugin } from '../../../src/plugins/auth.ts';
import { registerErrorHandler } from '../../../src/plugins/error-handler.ts';
import { settingsRoutes } from '../../../src/features/settings/settings.routes.ts';

/**
 * The settings route goes through the real app once app.ts registers it; until then it is
 * mounted on a bare app with the same auth guard, error handler and database.
 */
async function appWithSettings(t: TestApp): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  if (t.app.hasRoute({ method: 'GET', url: '/api/v1/settings' }))
    return { app: t.app, close: async () => {} };
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  const ctx = t.app.context;
  await app.register(
    async (api) => {
      await api.register(authPlugin, {
        db: ctx.db,
        clock: ctx.clock,
        idleMinutes: ctx.config.SESSION_IDLE_MINUTES,
        absoluteHours: ctx.config.SESSION_ABSOLUTE_HOURS,
        twoFactorRoles: ctx.config.TWO_FACTOR_REQUIRED_ROLES,
      });
      await api.register(settingsRoutes(ctx));
    },
    { prefix: '/api/v1' },
  );
  await app.ready();
  return { app, close: () => app.close() };
}

describe('GET /api/v1/settings', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let closeApp: () => Promise<void>;
  beforeAll(async () => {
    t = await buildTestApp({
      env: {
        IMPRINT_URL: 'https://konsum.example/impressum',
        PRIVACY_URL: 'https://konsum.example/datenschutz',
        CONTACT_AUFSICHTSRAT: 'ar@konsum.example',
        CONTACT_VERTRETER: 'vertreter@konsum.example',
      },
    });
    ({ app, close: closeApp } = await appWithSettings(t));
  });
  afterAll(async () => {
    await closeApp();
    await t.close();
  });

  it('answers links and contact addresses from the configuration to every signed-in user', async () => {
    const users = await createRoleUsers(t);
    for (const user of Object.values(users)) {
      const res = await app.inject({ method: 'GET', url: '/api/v1/settings', headers: user.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: {
          imprint_url: 'https://konsum.example/impressum',
          privacy_url: 'https://konsum.example/datenschutz',
          contacts: { Aufsichtsrat: 'ar@konsum.example', Vertreter: 'vertreter@konsum.example' },
          max_upload_mb: 100,
        },
      });
    }
  });

  it('needs a signed-in user', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/settings' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Bitte melden Sie sich an.' });
  });

  it('answers Impressum and Datenschutz, and nothing else, without a sign-in', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/legal-links' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        imprint_url: 'https://konsum.example/impressum',
        privacy_url: 'https://konsum.example/datenschutz',
      },
    });
  });

  it('has sensible defaults', async () => {
    const plain = await buildTestApp();
    try {
      const { app: defaultsApp, close } = await appWithSettings(plain);
      const user = (await createRoleUsers(plain)).vertreter;
      const res = await defaultsApp.inject({ method: 'GET', url: '/api/v1/settings', headers: user.headers });
      await close();
      expect(res.json()).toEqual({
        data: {
          imprint_url: 'https://www.example.org/impressum',
          privacy_url: 'https://www.example.org/datenschutz',
          contacts: { Aufsichtsrat: 'aufsichtsrat@example.org', Vertreter: 'vertreter@example.org' },
          max_upload_mb: 100,
        },
      });
    } finally {
      await plain.close();
    }
  });
});
