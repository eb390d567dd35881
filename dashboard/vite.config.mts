import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The partner dashboard: Preact, bundled into dist/dashboard and served by the API at /dashboard.
// No inline scripts or styles are emitted (the page runs under a strict Content-Security-Policy).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
});
