import { fileURLToPath } from 'node:url';
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

export default defineConfig({
  plugins: [react(), reactRouterProductionBuild()],
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
