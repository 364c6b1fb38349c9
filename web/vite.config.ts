import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
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
  },
});
