import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { legalLinksSchema, portalSettingsSchema } from '@gremienportal/contracts/account';
import { dataOf, errorBodySchema } from '@gremienportal/contracts/common';
import type { AppContext } from '../../context.ts';

/** Footer links and contact addresses come from configuration (product.md P2.4). */
export const settingsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { config } = ctx;
    const data = {
      imprint_url: config.IMPRINT_URL,
      privacy_url: config.PRIVACY_URL,
      contacts: { Aufsichtsrat: config.CONTACT_AUFSICHTSRAT, Vertreter: config.CONTACT_VERTRETER },
      max_upload_mb: config.MAX_UPLOAD_MB,
    };
    app.get(
      '/settings',
      {
        config: { duringTwoFactorSetup: true },
        schema: {
          tags: ['Einstellungen'],
          summary: 'Impressum, Datenschutz, Kontaktadressen je Rolle und Upload-Grenze',
          response: { 200: dataOf(portalSettingsSchema), 401: errorBodySchema },
        },
      },
      async () => ({ data }),
    );
    const legal = { imprint_url: data.imprint_url, privacy_url: data.privacy_url };
    app.get(
      '/legal-links',
      {
        // Public: the imprint and the privacy notice must be reachable from the sign-in page too.
        config: { access: 'public' },
        schema: {
          tags: ['Einstellungen'],
          summary: 'Impressum und Datenschutz, auch ohne Anmeldung',
          response: { 200: dataOf(legalLinksSchema) },
        },
      },
      async () => ({ data: legal }),
    );
  };
