import { resolve } from 'node:path';
import type { UserConfig } from 'vite';

/** Renderer settings shared by electron-vite and the standalone UI build, so both emit the same out/renderer. */
export const rendererConfig: UserConfig = {
  root: resolve(import.meta.dirname, 'src/renderer'),
  base: './',
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    // electron-vite leaves minification off unless asked; the window should load the small bundle.
    minify: true,
  },
};
