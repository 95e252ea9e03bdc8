import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import { rendererConfig } from './renderer.shared-config';

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          // The service runs in an Electron utilityProcess, so it is its own entry.
          service: resolve(import.meta.dirname, 'src/server/http/utility-entry.ts'),
        },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: {
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        // The window is sandboxed, and sandboxed preloads must be CommonJS; `.cjs` because the
        // package is "type": "module". src/main/index.ts loads out/preload/index.cjs.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: { ...rendererConfig, plugins: [react()] },
});
