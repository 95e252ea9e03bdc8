/**
 * `npm run lint` runs this: no import cycles anywhere in src/, type-only imports included
 * (tsPreCompilationDeps), since a type cycle still ties the modules' meaning together.
 * The folder rules themselves are ESLint's no-restricted-imports (eslint.config.js).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules that import each other cannot be understood or moved apart; break the cycle.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(out|node_modules)/' },
  },
};
