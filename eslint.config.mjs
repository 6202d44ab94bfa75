/**
 * Lint: the rules that catch real bugs (type-aware where it matters: promises nobody awaits, values
 * stringified as "[object Object]", switches that miss a case) and the import boundaries that keep
 * the layers apart. Style is left to the code review; every rule here is an error, none a warning.
 *
 * Layers (ARCHITECTURE.md): server/core is framework-free and imports no domain, tRPC, HTTP layer, mail or
 * Next; server/mail (the mail context) stands on server/core alone; domain code other than routers imports no tRPC; the runner imports no Next, React, tRPC or
 * web server code; only server/http/page-handler.ts imports Next on the server.
 */
import path from 'node:path';
import fs from 'node:fs';
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const frameworkPackages = {
  next: { group: ['next', 'next/*'], message: 'Only server/http/page-handler.ts and app/ import Next.js.' },
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
 * The engine's layers (ARCHITECTURE.md, "The engine's layers"), from the bottom: the contract
 * (server/engine/contract: the node SDK, failures, limits, capability types, the graph's shape); the
 * nodes, which stand on it; the rest of the engine; the domains, which use the engine through its one
 * public entry; the adapters (server/engine-adapters), which give the engine what it may do in the
 * domains and are handed to it at start-up (compose.ts). Each zone is one arrow that may not be drawn.
 */
/** An absolute glob under server/ (a zone whose `from` is a glob takes absolute globs as exceptions). */
const serverGlob = (...parts) => path.join(import.meta.dirname, 'server', ...parts);
const domainsUseEngineEntry = {
  target: './server/domains',
  from: './server/engine',
  except: ['./index.ts', './contract'],
  message: 'A domain uses the engine through its public entry, server/engine/index.ts (and the shapes of server/engine/contract/): add what you need there instead of reaching inside the engine.',
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
  // schemas.ts is the shapes face: zod schemas only (zod, core shapes, the engine's contract, other domains' schemas),
  // safe in the browser bundle; a schema importing another domain's index.ts would pull that whole domain, its
  // database client included, into every page that validates a form with it (next build refuses: `pg` in the client).
  .filter((file) => /^[^/]+\/(index|schemas)\.ts$/.test(file) || /(^|\/)engine-api\.ts$/.test(file));
const faceMessage =
  "Import another domain only through its public face, server/domains/<domain>/index.ts (or its engine-api.ts): its other files are its own business and change without notice. Add what you need to that domain's index.ts.";
const domainFaceZones = domainNames.map((name) => ({
  target: `./server/domains/${name}`,
  from: './server/domains',
  except: [`./${name}`, ...domainFaces.filter((face) => !face.startsWith(`${name}/`)).map((face) => `./${face}`)],
  message: faceMessage,
}));

/**
 * The runner is plumbing: it reaches a domain only through its public face (index.ts, or schemas.ts /
 * engine-api.ts), as other domains do.
 */
const runnerUnderFaces = fs.readdirSync(new URL('./runner', import.meta.url)).map((entry) => `./runner/${entry}`);
const runnerZones = [
  { target: './runner', from: './server/trpc', message: 'The runner imports no tRPC.' },
  { target: './runner', from: './server/http', message: 'The runner imports no web server code.' },
  { target: './runner', from: './app', message: 'The runner imports nothing from app/.' },
];
const runnerFaceMessage =
  "The runner reaches a domain only through its public face, server/domains/<domain>/index.ts (or its schemas.ts / engine-api.ts), as other domains do: export what the task needs from that index.ts.";

/**
 * One rule for Prisma (ARCHITECTURE, "Domain faces"): only a domain's repo.ts (or repo-<part>.ts) and its
 * housekeeping.ts query the database; every other domain file opens the transaction (`db().$transaction`) and hands
 * its `tx` to named repo functions. Enforced on every domain file, with no exemption, so a new one is born under
 * it. The selectors see `db().<model>` and `tx.<model>` (raw SQL included), the forms the code uses.
 */
const queryOutsideRepo =
  "In a domain only the repo queries the database (repo.ts or repo-<part>.ts; housekeeping.ts purges on its own): name this query in the domain's repo.ts (taking the transaction's tx) and call it here.";
const queriesOnlyInRepos = {
  'no-restricted-syntax': [
    'error',
    { selector: "MemberExpression[object.type='CallExpression'][object.callee.name='db'][property.name!='$transaction']", message: queryOutsideRepo },
    { selector: "MemberExpression[object.name='tx'][property.name!='$transaction']", message: queryOutsideRepo },
  ],
};

/**
 * The runner is plumbing (ARCHITECTURE, "runner/"): its supervisor, loops and tasks call server code (a task is a few
 * lines calling one server function), so server code never reaches up into it; job logic lives in server/.
 */
const runnerIsPlumbing =
  'Server code imports nothing from runner/: the runner is plumbing that calls server code (a task calls one server function), never the other way round. Put the logic in server/ and let the runner call it.';

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
      // The one program of tsconfig.json for every file, rather than the project service (an editor's per-file
      // service): same rules and types, a fifth less time (measured on the 2-core machine: 119 s against 142 s).
      parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.mjs', '.js'] } },
      // The files import-x reads to follow imports (its default is JavaScript only: no-cycle would see no TypeScript module).
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.mjs', '.js'],
    },
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
      // No import circles: in a circle, which module runs first depends on who imported whom first (a value
      // can be read before it is set), and the modules are no longer layers. Break a circle by design: move
      // the shared types to a third module, or hand the dependency in (an argument, a prop, a React context).
      // Type-only imports (`import type`) are erased at build and are not counted.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
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
  {
    // The UI's one way to the API: each section's facade (`_lib/api.ts`; a component family's `api.ts`, or a
    // second `*-api.ts` beside it) owns every tRPC call as a named hook, so components depend on hooks and
    // types only, and a route's cache keys and refreshes are written once.
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/**/api.ts', 'app/**/*-api.ts', 'app/lib/trpc.ts', 'app/**/*.test.{ts,tsx}', 'app/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/app/lib/trpc', '**/lib/trpc'],
              importNames: ['useTRPC', 'useTRPCClient'],
              message: 'Components never call tRPC: add a named hook to the section\'s _lib/api.ts and use that.',
            },
          ],
        },
      ],
    },
  },
  // --- Layering -------------------------------------------------------------------------------
  {
    files: ['server/**/*.ts'],
    ignores: ['server/http/page-handler.ts'],
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
            { target: './server/core', from: './server/mail', message: 'server/core is the kernel and imports no mail: server/mail stands on core, never the other way round.' },
            { target: './server/core', from: './runner', message: runnerIsPlumbing },
          ],
        },
      ],
    },
  },
  {
    // Mail (server/mail): IMAP, SMTP and the providers' APIs, ingest, threads, the mirror writer, sanitising, the send
    // transport. A bounded context of its own, used by the domains, the engine's adapters, the runner and the HTTP
    // start-up; it stands on server/core alone (its tests on server/testing too), so it never learns about a domain,
    // the engine, tRPC or a page, and a change in those never breaks a sync.
    files: ['server/mail/**/*.ts'],
    rules: {
      ...restrictPackages('next', 'react', 'trpc'),
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server/mail',
              from: './server',
              except: ['./core', './mail', './testing', './generated'],
              message: 'server/mail stands on server/core only (its tests on server/testing too): it imports no domain, engine, adapter, tRPC or HTTP code. Hand it what it needs as an argument, or move the shared piece into server/core.',
            },
            { target: './server/mail', from: './runner', message: 'server/mail imports nothing from the runner: the runner calls mail, not the other way round.' },
            { target: './server/mail', from: './app', message: 'server/mail imports nothing from app/.' },
          ],
        },
      ],
    },
  },
  {
    // Pages, tRPC and the OpenAPI document reach mail through a domain (server/domains/mail, mailboxes, compose…):
    // server/mail holds sockets, credentials and the database, none of which a page or a route definition may touch.
    files: ['app/**/*.{ts,tsx}', 'server/trpc/**/*.ts', 'server/openapi/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: ['./app', './server/trpc', './server/openapi'],
              from: './server/mail',
              message: 'Pages, tRPC and the OpenAPI document reach mail through a domain (server/domains/mail, mailboxes, compose…), never server/mail itself.',
            },
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
            { target: './server/domains', from: './runner', message: runnerIsPlumbing },
            domainsUseEngineEntry,
            ...domainFaceZones,
          ],
        },
      ],
    },
  },
  {
    files: ['server/domains/**/*.ts'],
    ignores: ['server/domains/**/*.test.ts', 'server/domains/**/repo.ts', 'server/domains/**/repo-*.ts', 'server/domains/**/housekeeping.ts'],
    rules: queriesOnlyInRepos,
  },
  {
    // A domain's schemas.ts is reached by the browser bundle: another domain's shapes come from that domain's
    // schemas.ts, never its index.ts (which loads the whole domain, its database client included).
    files: ['server/domains/*/schemas.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...['next', 'react', 'trpc'].map((name) => frameworkPackages[name]),
            inProcessExpressions,
            { regex: '^\\.\\./[a-z-]+(/index)?$', message: "A schemas.ts takes another domain's shapes from its schemas.ts (browser-safe), never from its index.ts." },
          ],
        },
      ],
    },
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
      'import-x/no-restricted-paths': ['error', { zones: runnerZones }],
    },
  },
  {
    // The runner's own code (its tests may still reach into what they test) reaches domains through their faces.
    files: ['runner/**/*.ts'],
    ignores: ['runner/**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...runnerZones,
            { target: runnerUnderFaces, from: './server/domains', except: domainFaces.map((face) => `./${face}`), message: runnerFaceMessage },
          ],
        },
      ],
    },
  },
  // --- The engine's layers ---------------------------------------------------------------------
  {
    // Routers import tRPC, so the domain block above leaves them out: they too reach the engine through its entry
    // and other domains through their faces (one block: a later block setting the same rule replaces an earlier one).
    files: ['server/domains/**/router.ts', 'server/domains/**/*-router.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [domainsUseEngineEntry, ...domainFaceZones] }] },
  },
  {
    files: ['server/engine/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server/engine',
              from: './server/domains',
              message: 'The engine imports no domain: what a step needs of a domain is a capability (server/engine/contract/capabilities.ts, built in server/engine-adapters), what a run’s end triggers is a run-end hook (server/engine/composition.ts).',
            },
            {
              target: './server/engine',
              from: './server/engine-adapters',
              message: 'The engine never imports its adapters: the composition root hands them to it at start-up (server/engine-adapters/compose.ts).',
            },
            {
              target: './server/engine/nodes',
              from: './server',
              except: ['./engine/contract', './engine/expressions', './engine/nodes', './core', './mail/addresses.ts', './testing'],
              message: 'A node stands on the engine’s contract only: server/engine/contract (defineNode, failures, limits, capability types), server/engine/expressions, server/core and the address grammar (server/mail/addresses.ts). What it needs of the world is a capability.',
            },
            {
              target: './server/engine/contract',
              from: './server/engine',
              except: ['./contract'],
              message: 'The contract is the bottom of the engine: it imports nothing else of server/engine (server/core is fine).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/engine-adapters/**/*.ts'],
    // Its tests drive the whole engine on a real worker (they start runs, read a domain's rows): like domain
    // tests, they may reach inside; the rule is about what the adapters' own code depends on.
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server/engine-adapters',
              from: './server/domains/**/*',
              except: [serverGlob('domains', '*', 'index.ts'), serverGlob('domains', '**', 'engine-api.ts')],
              message: 'An adapter reaches a domain through its faces only: server/domains/<d>/index.ts or its engine-api.ts (re-export there what the engine needs).',
            },
            {
              target: './server/engine-adapters',
              from: './server/engine',
              except: ['./index.ts', './contract', './expressions'],
              message: 'An adapter uses the engine through server/engine/index.ts, server/engine/contract/ and server/engine/expressions only.',
            },
          ],
        },
      ],
    },
  },
  {
    // A circle needs a module that another imports, and no module imports a test: from a test file no-cycle, which
    // walks the whole graph of the file's imports, can find nothing (it was a fifth of the lint's time on them).
    files: ['**/*.test.{ts,tsx}', 'e2e/**/*.spec.ts'],
    rules: { 'import-x/no-cycle': 'off' },
  },
);
