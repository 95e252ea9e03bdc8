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

// The service's layers (ARCHITECTURE.md): a feature reaches another only through its index.ts
// (sync/role.ts is the pure part of sync any feature may use); core/ and db/ import no feature,
// but for db/'s union of the feature tables and its list of migrations; http/ takes each
// feature's routes.ts and index.ts; migrations are frozen and import nothing but Kysely.
const FEATURES = [
  'access',
  'inventory',
  'orders',
  'fulfilment',
  'documents',
  'transactions',
  'analytics',
  'billing',
  'claims',
  'sync',
  'seed',
  'edi',
];
const UP = '^(?:\\.\\./)+';
const either = (names) => `(?:${names.join('|')})`;
/** What route files of a feature may take from http/: the route definition and its helpers. */
const HTTP_FOR_FEATURES = ['route-def', 'openapi-schemas', 'parse', 'errors'];
const outsideService = {
  regex: `${UP}(?:main|renderer)(?:/|$)`,
  message: 'The service never imports the Electron main process or the renderer.',
};
function featureRules(feature) {
  const others = FEATURES.filter((name) => name !== feature);
  const deepOthers = others.filter((name) => name !== 'sync');
  return [
    {
      regex: `${UP}(?:${either(deepOthers)}/.+|sync/(?!role$).+)`,
      message: `Another feature is imported through its index.ts (\`../<feature>\`); only sync/role.ts may be imported directly.`,
    },
    {
      regex: `${UP}http(?:/(?!${either(HTTP_FOR_FEATURES)}$).*)?$`,
      message: `A feature takes only the route definition and its helpers from http/ (${HTTP_FOR_FEATURES.join(', ')}).`,
    },
    outsideService,
  ];
}
const serviceLayers = [
  ...FEATURES.map((feature) => ({
    files: [`src/server/${feature}/**/*.ts`],
    ignores: [`src/server/${feature}/migrations/**`],
    rules: { 'no-restricted-imports': ['error', { patterns: featureRules(feature) }] },
  })),
  {
    files: ['src/server/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `${UP}(?:${either([...FEATURES, 'http'])}(?:/|$)|db/(?!db$))`,
              message:
                'core/ is the leaf: it imports no feature, no http/, and of db/ only the Db type.',
            },
            outsideService,
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/db/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `${UP}(?:${either([...FEATURES, 'http'])})(?:$|/(?!tables$|migrations/).*)`,
              message: "db/ imports no feature, but each feature's tables.ts and migrations/.",
            },
            outsideService,
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `${UP}${either(FEATURES)}/(?!routes$).+`,
              message: "http/ takes a feature's routes.ts or its index.ts, nothing deeper.",
            },
            outsideService,
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/*/migrations/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!kysely$).*',
              message:
                'Migrations are frozen: SQL written out, nothing imported but Kysely; a change is a new migration.',
            },
          ],
        },
      ],
    },
  },
];

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
  {
    // Type-aware rules for the service and the main process: a promise nobody awaits is a failure
    // nobody hears of (a background loop that throws, a write that ends after its answer).
    files: ['src/server/**/*.ts', 'src/main/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  ...serviceLayers,
);
