/**
 * Lint: the rules that catch real bugs (type-aware where it matters: promises nobody awaits, values
 * stringified as "[object Object]", switches that miss a case) and the import boundaries that keep
 * the layers apart. Style is left to the code review; every rule here is an error, none a warning.
 *
 * Layers (ARCHITECTURE.md): server/core is framework-free and imports no domain, tRPC, HTTP layer or
 * Next; domain code other than routers imports no tRPC; the runner imports no Next, React, tRPC or
 * web server code; only server/http/web-server.ts imports Next on the server.
 */
import fs from 'node:fs';
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const frameworkPackages = {
  next: { group: ['next', 'next/*'], message: 'Only server/http/web-server.ts and app/ import Next.js.' },
  react: { group: ['react', 'react/*', 'react-dom', 'react-dom/*'], message: 'React belongs to app/.' },
  trpc: { group: ['@trpc/*'], message: 'tRPC stays in server/trpc and the routers.' },
};

/** A plugin's preset with every rule it enables as an error: a warning nobody acts on is noise. */
const asErrors = (rules) => Object.fromEntries(Object.entries(rules).map(([name, level]) => [name, level === 'off' || level === 0 ? 'off' : 'error']));

/**
 * The expression evaluators that run on the calling thread. Server and runner code resolves a member's
 * expressions through server/engine/expressions/sandbox (worker threads it can terminate); only the
 * browser preview, the sandbox's own threads and tests evaluate in process.
 */
const inProcessExpressions = {
  group: ['**/engine/expressions', '**/engine/expressions/index', '../expressions', '../expressions/index'],
  importNames: ['resolveParams', 'resolveValueIn', 'evaluateExpression', 'resolveText'],
  message: 'Evaluate member expressions through server/engine/expressions/sandbox (worker threads), never on this thread.',
};

/**
 * Every domain behind one public face (ARCHITECTURE, "Domain faces"): another domain, a router and the HTTP layer
 * import a domain only through its `index.ts` (or an `engine-api.ts`, the face the engine's adapters use). The
 * faces are read from the tree, so a new domain is covered the day its folder exists.
 */
const domainNames = fs.readdirSync(new URL('./server/domains', import.meta.url), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
const domainFaces = fs
  .readdirSync(new URL('./server/domains', import.meta.url), { recursive: true })
  .map((file) => file.split('\\').join('/'))
  .filter((file) => /^[^/]+\/index\.ts$/.test(file) || /(^|\/)engine-api\.ts$/.test(file));
const faceMessage =
  "Import another domain only through its public face, server/domains/<domain>/index.ts (or its engine-api.ts): its other files are its own business and change without notice. Add what you need to that domain's index.ts.";
const domainFaceZones = domainNames.map((name) => ({
  target: `./server/domains/${name}`,
  from: './server/domains',
  except: [`./${name}`, ...domainFaces.filter((face) => !face.startsWith(`${name}/`)).map((face) => `./${face}`)],
  message: faceMessage,
}));

/**
 * One rule for Prisma (ARCHITECTURE, "Domain faces"): in a domain with a repo.ts, only the repo (and housekeeping)
 * queries the database; a service opens the transaction (`db().$transaction`) and hands its `tx` to named repo
 * functions. Enforced on the services listed here, which already follow it (the list grows until it is every
 * service of a domain with a repo). The selectors see `db().<model>` and `tx.<model>`, the forms the code uses.
 */
const servicesWithoutQueries = [
  'server/domains/llm/service.ts',
  'server/domains/send-guard/service.ts',
  'server/domains/templates/service.ts',
  'server/domains/workflows/service.ts',
];
const queryOutsideRepo =
  "In a domain with a repo.ts only the repo queries the database: name this query in ./repo.ts (taking the transaction's tx) and call it here.";
const queriesOnlyInRepos = {
  'no-restricted-syntax': [
    'error',
    { selector: "MemberExpression[object.type='CallExpression'][object.callee.name='db'][property.name!='$transaction']", message: queryOutsideRepo },
    { selector: "MemberExpression[object.name='tx'][property.name!='$transaction']", message: queryOutsideRepo },
  ],
};

const restrictPackages = (...names) => ({
  'no-restricted-imports': ['error', { patterns: [...names.map((name) => frameworkPackages[name]), inProcessExpressions] }],
});

export default tseslint.config(
  {
    ignores: ['node_modules/**', '.next/**', '.data/**', '.tools/**', 'server/generated/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.mjs', '.js'] } } },
    rules: {
      // Promises: a forgotten await loses errors and ordering.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      // Values that do not say what they seem to.
      '@typescript-eslint/no-base-to-string': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/no-array-delete': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
      '@typescript-eslint/no-implied-eval': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Casts to `any` are sometimes the honest type at a library seam; the type-aware rules above catch the bugs.
      '@typescript-eslint/no-explicit-any': 'off',
      // Sandboxing: user expressions are never evaluated as code (ARCHITECTURE, security).
      'no-eval': 'error',
      'no-new-func': 'error',
      // A user-chosen key must not reach Object.prototype (ARCHITECTURE rule 8).
      'no-prototype-builtins': 'error',
      'prefer-object-has-own': 'error',
      eqeqeq: ['error', 'smart'],
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'no-unsafe-finally': 'error',
      // The module graph as written must resolve.
      'import-x/no-cycle': 'off',
    },
  },
  {
    files: ['**/*.{mjs,js}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Scripts that must run on an old Node before anything is installed (scripts/check-node.cjs).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['app/**/*.tsx', 'app/**/*.ts'],
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...asErrors(nextPlugin.configs.recommended.rules),
      ...asErrors(nextPlugin.configs['core-web-vitals'].rules),
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // --- Layering -------------------------------------------------------------------------------
  {
    files: ['server/**/*.ts'],
    ignores: ['server/http/web-server.ts'],
    rules: restrictPackages('next', 'react'),
  },
  {
    // The evaluators' own module, its sandbox thread and tests may evaluate in process.
    files: ['server/engine/expressions/**/*.ts', 'server/**/*.test.ts', 'runner/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [frameworkPackages.next, frameworkPackages.react] }] },
  },
  {
    files: ['server/core/**/*.ts'],
    rules: {
      ...restrictPackages('next', 'react', 'trpc'),
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './server/core', from: './server/domains', message: 'server/core imports no domain.' },
            { target: './server/core', from: './server/trpc', message: 'server/core imports no tRPC.' },
            { target: './server/core', from: './server/http', message: 'server/core imports no HTTP layer.' },
            { target: './server/core', from: './app', message: 'server/core imports nothing from app/.' },
          ],
        },
      ],
    },
  },
  {
    // Domain code other than routers (services, repos, schemas, presenters, housekeeping) and tests.
    files: ['server/domains/**/*.ts'],
    ignores: ['server/domains/**/router.ts', 'server/domains/**/*-router.ts', 'server/domains/**/*.test.ts'],
    rules: {
      ...restrictPackages('next', 'react', 'trpc'),
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './server/domains', from: './server/trpc', message: 'Services import no tRPC: only routers do.' },
            { target: './server/domains', from: './server/http', message: 'Domains import no HTTP layer.' },
            ...domainFaceZones,
          ],
        },
      ],
    },
  },
  {
    files: servicesWithoutQueries,
    rules: queriesOnlyInRepos,
  },
  {
    // Routers import tRPC, so the block above leaves them out; they still reach other domains through their faces.
    files: ['server/domains/**/router.ts', 'server/domains/**/*-router.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: domainFaceZones }] },
  },
  {
    files: ['server/http/**/*.ts'],
    ignores: ['server/http/**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [{ target: './server/http', from: './server/domains', except: domainFaces.map((face) => `./${face}`), message: faceMessage }] },
      ],
    },
  },
  {
    files: ['runner/**/*.ts'],
    rules: {
      ...restrictPackages('next', 'react', 'trpc'),
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './runner', from: './server/trpc', message: 'The runner imports no tRPC.' },
            { target: './runner', from: './server/http', message: 'The runner imports no web server code.' },
            { target: './runner', from: './app', message: 'The runner imports nothing from app/.' },
          ],
        },
      ],
    },
  },
);
