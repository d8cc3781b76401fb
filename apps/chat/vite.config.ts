import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The chat frame, served by the server at /chainlit/ (the copilot bundle: vite.copilot.config.ts).
const server = process.env.CADRE_DEV_SERVER ?? 'http://localhost:8080';

export default defineConfig({
  base: '/chainlit/',
  plugins: [react()],
  server: {
    proxy: { '^/chainlit/(?!src/|@|node_modules/).+': { target: server, changeOrigin: false } },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1200 },
});
