import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { rendererConfig } from './renderer.shared-config';

// Builds the UI alone, for the headless service (`npm run serve`) and the e2e tests.
export default defineConfig({ ...rendererConfig, plugins: [react()] });
