import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// During `npm run dev -w apps/web`, the server (port 8080 by default) answers everything that is
// not the web app itself.
const server = process.env.CADRE_DEV_SERVER ?? 'http://localhost:8080';
const proxied = ['/backend', '/chainlit', '/demos', '/idp', '/runtime-config.json'];

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // A page's pending display is the page itself in its loading state: one chunk for both. A
      // loader is a chunk of its own, fetched alongside the page's: the route tree, which every
      // first visit loads, then brings none of the API code the loaders use.
      codeSplittingOptions: {
        defaultBehavior: [
          ['loader'],
          ['component', 'pendingComponent'],
          ['errorComponent'],
          ['notFoundComponent'],
        ],
      },
      quoteStyle: 'single',
    }),
    react(),
  ],
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: server, changeOrigin: false }])),
  },
  build: {
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      treeshake: {
        // Chakra's theme module assembles its full theme with `defineConfig(...)`, an identity
        // function the bundler cannot see through; declared pure, the full theme and its ~80
        // recipes leave the bundle, and only the recipes @cadre/ui's system lists stay.
        manualPureFunctions: ['defineConfig'],
      },
    },
  },
});
