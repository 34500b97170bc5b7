// Lint rules that keep the house habits from eroding: the recommended sets, plus type-aware rules
// that catch the bugs a reviewer misses (a promise nobody awaits, a switch that forgot a case, an async
// callback where a sync one is expected) and the 300-line ceiling on a file. Import boundaries live in
// .dependency-cruiser.cjs; formatting is prettier's (both also run by `npm run lint`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      'bin/**',
      'scripts/**',
      '*.js',
      '*.mjs',
      '*.cjs',
      // Breaks every rule on purpose: test/tools/lint-rules.e2e-spec.ts lints it with ignore off.
      'test/tools/lint-fixture/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A switch without a default must cover its union; one with a default chose its fallback
      // (five today: the timeline's failure statuses, the operators' `any`, 'text' as the format).
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    // The console's small browser scripts (served as they are, no bundler).
    files: ['src/console/assets/**/*.js'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        fetch: 'readonly',
        EventSource: 'readonly',
        CustomEvent: 'readonly',
        uPlot: 'readonly',
      },
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
      // House rule: a file past 300 lines holds more than one idea.
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
    },
  },
);
