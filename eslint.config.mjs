// Lint rules that keep the house habits from eroding: the recommended sets, plus type-aware rules
// that catch the bugs a reviewer misses (a promise nobody awaits, a switch that forgot a case, an async
// callback where a sync one is expected) and the 300-line ceiling on a file. Import boundaries live in
// .dependency-cruiser.cjs; formatting is prettier's (both also run by `npm run lint`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// A string or template that starts (after white space) with a statement's first word: SELECT,
// INSERT, UPDATE, DELETE, LISTEN and a word after it, or WITH <name> AS ( (prose starts "With ...").
const SQL_START =
  '/^\\s*((select|insert|update|delete|listen)\\s|with\\s+(recursive\\s+)?\\S+\\s+as\\s*(not\\s+)?(materialized\\s+)?\\()/i';
const SQL_TEXT_MESSAGE = 'SQL text belongs in a *.repository.ts (one owner per table)';
const STATEMENT_CALL_MESSAGE =
  'Statements run in a *.repository.ts (one owner per table): call the repository of the table';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      'bin/**',
      'packages/*/dist/**',
      'packages/*/bin/**',
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
    files: ['src/operator/console/assets/**/*.js'],
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
  {
    // Tests assert mechanisms, not speed (issue 26): no upper bound on wall-clock time (time comes
    // from an injected clock or fake timers), and no helper's own assertions swallowed. A bracket
    // between two observed instants (t >= sentFrom, t <= receivedBy) is not a bound on speed.
    files: ['test/**/*.ts', 'src/**/*.spec.ts', 'packages/*/src/**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name=/^toBeLessThan(OrEqual)?$/]:has(MemberExpression[object.name='Date'][property.name='now'], MemberExpression[object.name='Date'][property.name='parse'], MemberExpression[object.name='performance'][property.name='now'], MemberExpression[property.name='hrtime'], MemberExpression[property.name='getTime'])",
          message:
            'An upper bound on wall-clock time fails on a loaded machine: assert the mechanism, or move time with an injected clock or fake timers.',
        },
        {
          selector:
            "CallExpression[callee.property.name=/^toBeLessThan(OrEqual)?$/]:has(BinaryExpression[operator='-'][left.name=/At$/], BinaryExpression[operator='-'][left.property.name=/^at$|At$/])",
          message:
            'A difference of two instants under a bound is a wall-clock bound: assert the mechanism, or use an injected clock or fake timers.',
        },
        {
          selector:
            "CallExpression[callee.property.name='catch'] > ArrowFunctionExpression.arguments[params.length=0][body.type='Identifier'][body.name='undefined']",
          message:
            ".catch(() => undefined) discards failures, a helper's own assertions among them: let it throw, or assert the rejection.",
        },
      ],
    },
  },
  {
    // One owner per table (docs/ARCHITECTURE.md, "Who owns what"): SQL text, and the calls that run
    // statements, live in the table's *.repository.ts; the migrations and the tests may hold them
    // too, and the SQL toolkit (src/persistence/sql/) may run statements others wrote (next block). Proven live by test/tools/sql-boundary.e2e-spec.ts
    // on lint-fixture/src (which this block also covers; it comes after the tests'
    // block, whose no-restricted-syntax it would otherwise lose to, and spec files stay out of it).
    files: ['src/**/*.ts', 'test/tools/lint-fixture/src/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/persistence/sql/**', '**/*.spec.ts', '**/*.spec-support.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `Literal[value=${SQL_START}]`,
          message: SQL_TEXT_MESSAGE,
        },
        {
          selector: `TemplateLiteral[quasis.0.value.raw=${SQL_START}]`,
          message: SQL_TEXT_MESSAGE,
        },
        {
          selector: 'CallExpression[callee.property.name=/^(query|getRepository)$/]',
          message: STATEMENT_CALL_MESSAGE,
        },
        {
          selector: "CallExpression[callee.name='InjectRepository']",
          message: STATEMENT_CALL_MESSAGE,
        },
      ],
    },
  },
  {
    // The SQL toolkit (query wrappers, batching, row types) runs the statements repositories pass
    // it, but holds no SQL text of its own: a statement it needs belongs to a repository too.
    files: ['src/persistence/sql/**/*.ts', 'test/tools/lint-fixture/src/persistence/sql/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/*.spec.ts', '**/*.spec-support.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `Literal[value=${SQL_START}]`, message: SQL_TEXT_MESSAGE },
        { selector: `TemplateLiteral[quasis.0.value.raw=${SQL_START}]`, message: SQL_TEXT_MESSAGE },
      ],
    },
  },
);
