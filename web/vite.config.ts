import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * react-router's package exports point only at its development build, whose warnings then run in
 * production (remix-run/react-router#14102); the production build takes its production files.
 */
function reactRouterProductionBuild(): Plugin {
  const dist = fileURLToPath(new URL('../node_modules/react-router/dist/production/', import.meta.url));
  return {
    name: 'react-router-production-build',
    apply: 'build',
    config: () => ({
      resolve: {
        alias: [
          { find: /^react-router$/, replacement: `${dist}index.mjs` },
          { find: /^react-router\/dom$/, replacement: `${dist}dom-export.mjs` },
        ],
      },
    }),
  };
}

/**
 * The login page is a lazy chunk: without help the browser learns of it (and of the chunks it
 * imports) only after the entry has loaded and run, one more round trip before the form can
 * paint. `<link rel="modulepreload">` for that chunk and its static imports lets them load beside
 * the entry on every first visit (decision 115). Other lazy pages are not preloaded.
 */
function preloadFirstRoute(moduleSuffix: string): Plugin {
  let base = '/';
  return {
    name: 'preload-first-route',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const route = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(moduleSuffix));
        if (!route) throw new Error(`preload-first-route: kein Chunk für ${moduleSuffix}`);
        const files: string[] = [];
        const visit = (fileName: string) => {
          const chunk = chunks.find((candidate) => candidate.fileName === fileName);
          if (!chunk || chunk.isEntry || files.includes(fileName)) return;
          files.push(fileName);
          chunk.imports.forEach(visit);
        };
        visit(route.fileName);
        return files.map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/** Chunks whose dynamic import carries no preload list (see `build.modulePreload` below). */
const WITHOUT_PRELOAD_LIST = new RegExp(
  `(^|/)(${[
    'header-search-box',
    'event-agenda',
    'file-new',
    'file-update',
    'folder-update',
    'event-update',
    'users',
    'user-update',
    'audit',
    'trash',
    'api-keys',
  ].join('|')})-[\\w-]+\\.js$`,
);

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The server does not compress answers itself: next to every script, style sheet and SVG the build
 * writes `name.br` and `name.gz` (when smaller), which `@fastify/static` sends (`preCompressed`) to
 * browsers that accept them (decision 115). Brotli at its highest level costs build time once, not
 * per request.
 */
function precompressedAssets(): Plugin {
  return {
    name: 'precompressed-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir!;
      const files = Object.keys(bundle).filter((file) => /\.(?:js|css|svg)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const content = await readFile(path);
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipped(content, { level: 9 }),
          ]);
          // A tiny file can grow; the server then sends it as it is.
          await Promise.all([
            br.length < content.length ? writeFile(`${path}.br`, br) : undefined,
            gz.length < content.length ? writeFile(`${path}.gz`, gz) : undefined,
          ]);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    reactRouterProductionBuild(),
    preloadFirstRoute('/src/app/routes/login.tsx'),
    precompressedAssets(),
  ],
  resolve: {
    // `source` first: the contracts package is consumed as TypeScript source, not as its build output.
    conditions: ['source', 'module', 'browser', 'development|production'],
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false },
    },
  },
  build: {
    target: 'es2022',
    // bench/src/check-bundle.ts follows the chunk graph in .vite/manifest.json (decision 024).
    manifest: true,
    modulePreload: {
      // The header search loads on its first use (decision 129), the agenda editor and the other
      // pages only admins open on demand (decision 130). Their imports name only their own chunk
      // and style sheets, not the dozens of chunks below them: those lists would sit in the app
      // shell that /login and /files load first. The browser finds them when it runs the chunk.
      resolveDependencies: (file, deps) => (WITHOUT_PRELOAD_LIST.test(file) ? [] : deps),
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the first page load needs statically goes into the entry file: one request
          // and one gzip stream instead of several small shared chunks (decision 024).
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
    },
  },
});
