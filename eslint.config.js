import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The renderer and the shared contracts run in the browser window: they never reach into the
// service (src/server), the Electron main process (src/main) or Node's own modules.
const browserSideImports = {
  paths: builtinModules.map((name) => ({
    name,
    message: 'The renderer and src/shared run in the browser: no Node modules.',
  })),
  patterns: [
    {
      group: ['node:*'],
      message: 'The renderer and src/shared run in the browser: no Node modules.',
    },
    {
      group: ['**/main/**', '**/server/**'],
      message:
        'The renderer and src/shared never import src/main or src/server; share through src/shared.',
    },
  ],
};

// The renderer's shared layers serve every screen, so they never import one.
const noScreens = {
  group: ['**/screens/**'],
  message:
    'api/, components/, format/ and forms/ serve every screen and never import screens/; move the shared part here instead.',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'out',
      'dist',
      'data',
      'coverage',
      'playwright-report',
      'test-results',
      '.tmp',
      'build',
      'bench/results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}', 'src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', browserSideImports] },
  },
  {
    // A later block replaces the rule's options, so this one repeats the browser-side patterns.
    files: ['src/renderer/src/{api,components,format,forms}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { ...browserSideImports, patterns: [...browserSideImports.patterns, noScreens] },
      ],
    },
  },
);
