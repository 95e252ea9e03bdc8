import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

// The renderer is bundled by Vite, so what only the UI uses must not ship in the installed app's
// node_modules (electron-builder packs `dependencies`).
const UI_ONLY = [
  'react',
  'react-dom',
  'react-hook-form',
  '@hookform/resolvers',
  '@tanstack/react-table',
  '@tanstack/react-query',
  '@tanstack/react-router',
  'papaparse',
  'read-excel-file',
  'recharts',
];

describe('package.json', () => {
  it.each(UI_ONLY)(
    '%s is a devDependency (bundled into the UI), not a runtime dependency',
    (name) => {
      expect(pkg.devDependencies[name], `${name} in devDependencies`).toBeDefined();
      expect(pkg.dependencies[name], `${name} in dependencies`).toBeUndefined();
    },
  );
});
