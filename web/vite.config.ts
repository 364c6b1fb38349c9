import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { rolldown } from 'rolldown';
import { CHUNK_TABLE_ID } from './src/boot/chunk-table';

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
 * The chunks each first page needs, by the group names of src/boot/first-load.ts: the manifest
 * keys of its lazy modules, whose static imports follow.
 */
const FIRST_LOAD_GROUPS: Record<string, readonly string[]> = {
  login: ['src/app/routes/login.tsx'],
  app: ['src/app/layouts/app-layout.tsx'],
  files: ['src/app/routes/files.tsx'],
  'event-show': ['src/app/routes/event-show.tsx'],
  events: ['src/app/routes/events.tsx'],
  account: ['src/app/routes/account.tsx'],
  search: ['src/app/routes/search.tsx'],
};

/**
 * Pages are lazy chunks: without help the browser learns of a page's chunks (and of its first API
 * calls) only after the entry has loaded and run. index.html gets a table of each group's chunk
 * files (a JSON block, which the CSP lets through: it is not run) and the boot script
 * (src/boot/boot.ts, bundled on its own), which reads the stored token and the address and asks
 * for that page's chunks and first answers beside the entry (decisions 115, 184).
 */
function firstLoadBoot(): Plugin {
  let base = '/';
  let root = '';
  return {
    name: 'first-load-boot',
    apply: 'build',
    configResolved(config) {
      base = config.base;
      root = config.root;
    },
    async buildStart() {
      const bundle = await rolldown({ input: join(root, 'src/boot/boot.ts'), platform: 'browser' });
      const { output } = await bundle.generate({ format: 'esm', minify: true });
      await bundle.close();
      this.emitFile({ type: 'asset', name: 'boot.js', source: output[0].code });
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return;
        const outputs = Object.values(bundle);
        const chunks = outputs.filter((output) => output.type === 'chunk');
        const table: Record<string, string[]> = {};
        for (const [group, modules] of Object.entries(FIRST_LOAD_GROUPS)) {
          const files: string[] = [];
          const visit = (fileName: string) => {
            const chunk = chunks.find((candidate) => candidate.fileName === fileName);
            if (!chunk || chunk.isEntry || files.includes(fileName)) return;
            files.push(fileName);
            // Its style sheets too: the chunk runs only once they are there (Vite's preload helper).
            for (const sheet of chunk.viteMetadata?.importedCss ?? [])
              if (!files.includes(sheet)) files.push(sheet);
            chunk.imports.forEach(visit);
          };
          for (const module of modules) {
            const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(`/${module}`));
            if (!chunk) throw new Error(`first-load-boot: kein Chunk für ${module}`);
            visit(chunk.fileName);
          }
          table[group] = files.map((file) => `${base}${file}`);
        }
        const boot = outputs.find((output) => output.type === 'asset' && output.names.includes('boot.js'));
        if (!boot) throw new Error('first-load-boot: das Boot-Skript fehlt im Build.');
        return [
          {
            tag: 'script',
            attrs: { type: 'application/json', id: CHUNK_TABLE_ID },
            children: JSON.stringify(table),
            injectTo: 'head' as const,
          },
          {
            tag: 'script',
            attrs: { type: 'module', async: true, src: `${base}${boot.fileName}` },
            injectTo: 'head' as const,
          },
        ];
      },
    },
  };
}

/**
 * Mantine's Drawer imports ScrollArea (only to compare a component), and ScrollArea imports
 * `useMergeRefs` from `@floating-ui/react`: one module that then lands, whole, in the first
 * load of every signed-in page. ScrollArea gets the same hook on Mantine's `useMergedRef` instead
 * (src/lib/shims/merge-refs.ts); menus, popovers and tooltips keep floating-ui and load it with
 * their chunks (decision 184).
 */
function scrollAreaWithoutFloatingUi(): Plugin {
  const shim = fileURLToPath(new URL('./src/lib/shims/merge-refs.ts', import.meta.url));
  return {
    name: 'scroll-area-without-floating-ui',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '@floating-ui/react' && importer?.includes('/ScrollArea/ScrollArea.mjs')) return shim;
      return null;
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
    'committees',
    'committee-show',
    'resolutions',
    'resolution-show',
    'motion-show',
    'motion-edit',
    'agenda-motions',
    'committee-motions',
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
    scrollAreaWithoutFloatingUi(),
    firstLoadBoot(),
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
      // pages only admins open on demand (decision 130), and the Gremien and Beschlüsse pages, which
      // members open now and then (with the motions the event and committee pages add after their
      // first paint). Their imports name only their own chunk and style sheets, not
      // the dozens of chunks below them: those lists would sit in the app shell that /login and
      // /files load first. The browser finds them when it runs the chunk.
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
