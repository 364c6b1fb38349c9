import { existsSync } from 'node:fs';
import { chmod, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { systemClock, type Clock } from './clock.ts';
import { migrateToLatest, openDatabase, type Db } from './db/database.ts';
import { seedBaseData, type InitialAdmin } from './db/seed.ts';
import { seedDemoData, type DemoAccount } from './db/demo-seed.ts';
import { frameworkErrorHandler, registerErrorHandler } from './plugins/error-handler.ts';
import { authPlugin } from './plugins/auth.ts';
import { shareInvalidations } from './db/principal-cache-redis.ts';
import { textInputPlugin } from './plugins/text-input.ts';
import { loggerOptions, RequestLog, requestLoggerFactory } from './plugins/logging.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerDurableAnswers } from './plugins/durable-answers.ts';
import { serializerCompiler } from './plugins/serializer.ts';
import { validatorCompiler } from './plugins/validator.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { makePrivateDir, SHARED_DIR_MODE } from './storage/private-files.ts';
import { DiskStorage } from './storage/disk-storage.ts';
import { S3Storage } from './storage/s3-storage.ts';
import { storageFromConfig } from './storage/from-config.ts';
import type { FileStorage } from './storage/file-storage.ts';
import { MailSender } from './mail/sender.ts';
import { processPasswordRequests } from './features/auth/password-requests.ts';
import { DailyJob, type DailyTask } from './maintenance/daily-job.ts';
import { housekeepingTask } from './maintenance/housekeeping.ts';
import { auditRetentionTasks } from './features/audit/audit-retention.ts';
import { trashTasks } from './features/trash/trash-expiry.ts';
import { trashRoutes } from './features/trash/trash.routes.ts';
import { versionTasks } from './features/files/versions-retention.ts';
import { versionsRoutes } from './features/files/versions.routes.ts';
import { referencedObjects } from './db/referenced-objects.ts';
import { loadSecretBox, type SecretBox } from './credentials/secret-box.ts';
import { fileTransport, smtpTransport, type MailTransport } from './mail/transport.ts';
import { GERMAN } from './errors.ts';
import { InMemoryCounterStore, type CounterStore } from './rate-limit/counter-store.ts';
import { RedisCounterStore } from './rate-limit/redis-counter-store.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { serverWithHealthProbe } from './features/health/health-probe.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { accountRoutes } from './features/account/account.routes.ts';
import { twoFactorRoutes } from './features/two-factor/two-factor.routes.ts';
import { rolesRoutes } from './features/roles/roles.routes.ts';
import { usersRoutes } from './features/users/users.routes.ts';
import { filesRoutes } from './features/files/files.routes.ts';
import { acknowledgementsRoutes } from './features/files/acknowledgements.routes.ts';
import { newsRoutes } from './features/news/news.routes.ts';
import { foldersRoutes } from './features/folders/folders.routes.ts';
import { foldersService } from './features/folders/folders.service.ts';
import { committeesFeature } from './features/committees/committees.feature.ts';
import { committeesRoutes } from './features/committees/committees.routes.ts';
import { resolutionsFeature } from './features/resolutions/resolutions.feature.ts';
import { motionsRoutes } from './features/resolutions/motions.routes.ts';
import { resolutionsRoutes } from './features/resolutions/resolutions.routes.ts';
import { votesJobWork } from './features/resolutions/votes-job.ts';
import { archiveEndedTerms } from './features/committees/terms.service.ts';
import { applyDueMemberships } from './features/committees/membership-states.ts';
import { MinuteJob } from './maintenance/minute-job.ts';
import { ReadCache } from './features/explorer/explorer.service.ts';
import { eventsRoutes } from './features/events/events.routes.ts';
import { agendaRoutes } from './features/meetings/agenda.routes.ts';
import { attendanceRoutes } from './features/meetings/attendance.routes.ts';
import { minutesRoutes } from './features/meetings/minutes.routes.ts';
import { calendarFeedRoutes } from './features/events/calendar-feed.routes.ts';
import { apiKeysRoutes } from './features/api-keys/api-keys.routes.ts';
import { bookRoutes } from './features/meetings/book.routes.ts';
import { BookBuilder, type BookLimits } from './book/book-builder.ts';
import { sweepBookFiles } from './book/book-file.ts';
import { auditRoutes } from './features/audit/audit.routes.ts';
import { settingsRoutes } from './features/settings/settings.routes.ts';
import { searchRoutes } from './features/search/search.routes.ts';
import { SearchCounter } from './features/search/search-counter.ts';
import { SearchIndexer } from './search/indexer.ts';
import { DigestJob, digestTasks } from './features/notifications/notifications.service.ts';
import { completeQuietBatches, uploadBatchTasks } from './features/files/upload-batches.service.ts';

/** What the daily maintenance runs, in this order: each feature's task for its own data, then housekeeping. */
export const DAILY_TASKS: readonly DailyTask[] = [
  ...auditRetentionTasks,
  ...trashTasks,
  ...versionTasks,
  ...digestTasks,
  ...uploadBatchTasks,
  housekeepingTask,
];

export interface BuildAppOptions {
  config: Config;
  db?: Db;
  clock?: Clock;
  storage?: FileStorage;
  counters?: CounterStore;
  mailTransport?: MailTransport;
  secrets?: SecretBox;
  /** Folder of the built web app; served with the SPA fallback when it exists. */
  webRoot?: string;
  /** Limits of the Sitzungsmappe's builder beyond `BOOK_CONCURRENCY` (tests make them small). */
  bookLimits?: Partial<BookLimits>;
  /** Tests set this false and call `app.context.mailSender.flush()` themselves. */
  startBackgroundJobs?: boolean;
  logger?: boolean | Logger;
}

declare module 'fastify' {
  interface FastifyInstance {
    context: AppContext;
    initialAdmin: InitialAdmin | undefined;
    /** Demo accounts seeded by this start (DEMO=1 on an empty database), to be printed once. */
    demoAccounts: DemoAccount[];
    /** Reads the text of documents for the search; tests call `drain()` themselves. */
    searchIndexer: SearchIndexer;
    searchCounter: SearchCounter;
    /** Daily and weekly notification digests (decision 131); tests call `run()` themselves. */
    digests: DigestJob;
    /** Memberships that start or end and terms that end (decision 189); tests call `run()` themselves. */
    memberships: MinuteJob;
    /** Umlaufverfahren past their deadline, reminders, overdue follow-ups (decision 190). */
    votes: MinuteJob;
  }
}

/**
 * Removes what a crash left behind: temporary content and objects no row refers to. Disk storage
 * belongs to one instance, so at start nothing can be in flight; shared object storage keeps a
 * grace period for uploads still running on other instances.
 */
async function sweepStorage(context: AppContext, graceMs: number): Promise<void> {
  const k = context.db.kysely;
  // Two queries, not two per stored object: the start must stay quick with many documents.
  // Objects written after this read are younger than the cut-off and are left alone anyway.
  const referenced = await referencedObjects(k);
  const removed = await context.storage.sweep(
    async (key) => referenced.has(key),
    // File times are wall-clock times, whatever clock the app runs on.
    new Date(Date.now() - graceMs),
  );
  if (removed.length > 0)
    context.logger.warn({ removed: removed.length }, 'Verwaiste Speicherobjekte entfernt');
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  let closing = false;
  const app = Fastify({
    ...(options.logger === undefined || typeof options.logger === 'boolean'
      ? { logger: options.logger === false ? false : loggerOptions(config) }
      : { loggerInstance: options.logger as Logger }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // Streamed uploads may take long on slow lines; a stalled one is still cut off.
    requestTimeout: 0,
    connectionTimeout: 0,
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler,
    logController: new RequestLog(),
    childLoggerFactory: requestLoggerFactory,
    serverFactory: serverWithHealthProbe(() => closing),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Data-URL uploads arrive as JSON: allow them up to the upload limit (base64 adds a third).
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: Math.ceil(config.MAX_UPLOAD_MB * 1024 * 1024 * 1.4) + 64 * 1024 },
    app.getDefaultJsonParser('error', 'error'),
  );

  const clock = options.clock ?? systemClock;
  // What DATA_DIR holds is confidential (private-files.ts): an existing folder from an older
  // version or a wide umask is made owner-only at every start.
  const usesDataDir = !config.DATABASE_URL || config.STORAGE !== 's3' || !config.SMTP_URL;
  if (usesDataDir) await makePrivateDir(config.DATA_DIR);
  const db =
    options.db ??
    openDatabase({
      databaseUrl: config.DATABASE_URL,
      sqliteFile: join(config.DATA_DIR, 'portal.sqlite'),
      onPoolError: (error) => app.log.warn({ err: error }, 'Datenbankverbindung beendet'),
    });
  await migrateToLatest(db);
  app.decorate(
    'initialAdmin',
    await seedBaseData(db, clock, {
      email: config.INITIAL_ADMIN_EMAIL,
      password: config.INITIAL_ADMIN_PASSWORD,
    }),
  );

  const storage = options.storage ?? storageFromConfig(config);
  if (config.DOWNLOAD_OFFLOAD === 's3' && !storage.directUrl) {
    throw new Error('DOWNLOAD_OFFLOAD=s3: der Speicher kann keine Download-Adressen ausstellen');
  }
  // The web app follows a download's redirect to the object store (decision 135).
  const connectSources =
    config.DOWNLOAD_OFFLOAD === 's3' && storage instanceof S3Storage ? [await storage.directOrigin()] : [];
  const transport =
    options.mailTransport ??
    (config.SMTP_URL
      ? smtpTransport(config.SMTP_URL)
      : fileTransport(join(config.DATA_DIR, 'mail'), app.log));
  const mailSender = new MailSender({
    db,
    clock,
    transport,
    from: config.MAIL_FROM,
    logger: app.log,
    // Forgot-password requests are answered at once and handled here (decision 118).
    jobs: [
      {
        name: 'password-requests',
        run: () => processPasswordRequests({ db, clock, config, logger: app.log }),
      },
      // Batches of uploads nobody completed, a quiet period after their last document (decision 182).
      { name: 'upload-batches', run: () => completeQuietBatches({ db, clock, config }) },
    ],
  });
  const context: AppContext = {
    config,
    db,
    clock,
    storage,
    counters:
      options.counters ??
      (config.REDIS_URL
        ? RedisCounterStore.connect(config.REDIS_URL, { logger: app.log })
        : new InMemoryCounterStore(clock)),
    mailSender,
    logger: app.log,
    secrets: options.secrets ?? loadSecretBox(config),
  };
  app.decorate('context', context);
  // Logouts, role changes and revoked keys reach every instance's principal cache at once.
  const sharedInvalidations = config.REDIS_URL
    ? shareInvalidations(config.REDIS_URL, db.principals, app.log)
    : undefined;
  const indexer = new SearchIndexer(context);
  const searchCounter = new SearchCounter(context);
  // Finished books wait for their download in DATA_DIR/tmp/books (decision 149).
  const bookFiles = join(config.DATA_DIR, 'tmp', 'books');
  const books = new BookBuilder(
    { concurrency: config.BOOK_CONCURRENCY, ...options.bookLimits },
    { tmpDir: bookFiles },
  );
  app.decorate('searchIndexer', indexer);
  app.decorate('searchCounter', searchCounter);
  const digests = new DigestJob(context);
  app.decorate('digests', digests);
  const membershipJob = new MinuteJob('memberships', context.logger, () =>
    applyDueMemberships(context, (today) => archiveEndedTerms(context, today)),
  );
  app.decorate('memberships', membershipJob);
  const votesJob = new MinuteJob('votes', context.logger, () => votesJobWork(context));
  app.decorate('votes', votesJob);
  // Demo content only on the empty database this start has just set up.
  app.decorate(
    'demoAccounts',
    config.DEMO && app.initialAdmin ? await seedDemoData(db, clock, storage) : ([] as DemoAccount[]),
  );

  registerErrorHandler(app);
  registerSecurityHeaders(app, { connectSources });
  registerDurableAnswers(app, db.durability);

  await registerOpenApi(app, config);

  await app.register(
    async (api) => {
      await api.register(authPlugin, {
        db,
        clock,
        idleMinutes: config.SESSION_IDLE_MINUTES,
        absoluteHours: config.SESSION_ABSOLUTE_HOURS,
        twoFactorRoles: config.TWO_FACTOR_REQUIRED_ROLES,
      });
      await api.register(textInputPlugin);
      await api.register(healthRoutes(context));
      await api.register(authRoutes(context));
      await api.register(accountRoutes(context));
      await api.register(twoFactorRoutes(context));
      await api.register(rolesRoutes(context));
      await api.register(usersRoutes(context));
      // One read cache for folders and files: folders, trees and counts are shared by all reads.
      const readCache = new ReadCache(() => context.db.kysely);
      const committees = committeesFeature(context, foldersService(context, readCache));
      await api.register(foldersRoutes(context, readCache, committees.terms.recordPeriod));
      await api.register(committeesRoutes(context, committees));
      const resolutions = resolutionsFeature(context);
      await api.register(motionsRoutes(resolutions));
      await api.register(resolutionsRoutes(context, resolutions));
      await api.register(filesRoutes(context, readCache));
      await api.register(versionsRoutes(context, readCache));
      await api.register(acknowledgementsRoutes(context));
      await api.register(newsRoutes(context, readCache));
      await api.register(trashRoutes(context));
      await api.register(searchRoutes(context, readCache, searchCounter));
      await api.register(eventsRoutes(context));
      await api.register(agendaRoutes(context, readCache));
      await api.register(attendanceRoutes(context));
      await api.register(minutesRoutes(context));
      await api.register(bookRoutes(context, books));
      await api.register(calendarFeedRoutes(context));
      await api.register(auditRoutes(context));
      await api.register(settingsRoutes(context));
      await api.register(apiKeysRoutes(context));
    },
    { prefix: '/api/v1' },
  );

  const webRoot = options.webRoot ? resolve(options.webRoot) : undefined;
  const indexHtml =
    webRoot && existsSync(join(webRoot, 'index.html'))
      ? await readFile(join(webRoot, 'index.html'))
      : undefined;
  if (webRoot && indexHtml) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // The web build writes `name.br` / `name.gz` beside each script and style sheet; they are
      // sent to browsers that accept them (with `Vary: Accept-Encoding`) and get no routes of their
      // own (decision 115).
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders(reply, path) {
        // Hashed asset names never change; index.html must always be fetched fresh.
        reply.header(
          'Cache-Control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/');
    if (!isApi && indexHtml && (request.method === 'GET' || request.method === 'HEAD')) {
      // Client-side routes (and the 404 page) are rendered by the web app.
      return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(indexHtml);
    }
    return reply.status(404).send({ message: GERMAN.notFound });
  });

  app.addHook('preClose', async () => {
    closing = true;
  });
  const retention = new DailyJob(context, DAILY_TASKS);
  app.addHook('onReady', async () => {
    // Decision 135: nginx's user (in the portal's group) passes through DATA_DIR to the documents,
    // once every part has made the folder owner-only; nothing else in it is readable for the group.
    if (config.DOWNLOAD_OFFLOAD === 'nginx') await chmod(config.DATA_DIR, SHARED_DIR_MODE);
    if (storage instanceof DiskStorage) await storage.applyModes();
    await sweepStorage(context, config.STORAGE === 's3' ? 15 * 60_000 : 0);
    // DATA_DIR belongs to this instance: no book of it is under way yet.
    const leftBooks = await sweepBookFiles(bookFiles);
    if (leftBooks > 0) app.log.warn({ removed: leftBooks }, 'Verwaiste Sitzungsmappen entfernt');
    if (options.startBackgroundJobs !== false) {
      mailSender.start();
      retention.start();
      indexer.start();
      searchCounter.start();
      digests.start();
      membershipJob.start();
      votesJob.start();
    }
  });
  app.addHook('onClose', async () => {
    await indexer.stop();
    await books.close();
    await searchCounter.stop();
    await digests.stop();
    await membershipJob.stop();
    await votesJob.stop();
    await retention.stop();
    await mailSender.stop();
    transport.close();
    if (!options.counters && context.counters instanceof RedisCounterStore) await context.counters.close();
    if (!options.storage && storage instanceof S3Storage) storage.close();
    await sharedInvalidations?.close();
    if (!options.db) await db.close();
  });

  return app;
}
