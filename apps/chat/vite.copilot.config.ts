import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The copilot widget: ONE self-contained script (React and the UI bundled in) that host pages load
// from /chainlit/copilot/index.js. Built after the frame into dist/copilot.
export default defineConfig({
  plugins: [react()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist/copilot',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    lib: {
      entry: 'src/copilot/main.tsx',
      name: 'CadreCopilot',
      formats: ['iife'],
      fileName: () => 'index.js',
    },
  },
});
