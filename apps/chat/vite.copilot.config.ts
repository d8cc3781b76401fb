import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The copilot widget: ONE self-contained script (React and the UI bundled in) that host pages load
// from /chainlit/copilot/index.js. Built after the frame into dist/copilot.
export default defineConfig({
  plugins: [react()],
  resolve: {
    // One script file: a lazy chunk would be inlined, costing more than it saves (the frame's build
    // loads the Markdown renderer lazily, src/components/message-text.tsx).
    alias: [
      {
        find: /^\.\/message-text$/,
        replacement: fileURLToPath(new URL('src/components/message-markdown.tsx', import.meta.url)),
      },
    ],
  },
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
