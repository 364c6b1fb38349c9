import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

/*
 * Module boundaries (decision 121). A feature owns its code: another feature may call its service
 * (`*.service.ts` on the server), nothing else; on the web features do not import each other at
 * all. Shared layers (`http`, `storage`, `db`, `mail`, … and the web's `components` and `lib`)
 * import no feature. `app.ts` (server) and `web/src/app` wire features together and may.
 */
const featuresOf = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SERVER_FEATURES = featuresOf('./server/src/features/');
const WEB_FEATURES = featuresOf('./web/src/features/');

/**
 * Refuses relative imports from a file `depth` folders below `features/<own>/` that land in another
 * feature, either as a sibling (`../other/`) or through `features/`. `allowedFile` names the files
 * of another feature that may be imported (on the server: its service); `exceptions` are exact
 * import paths let through for now, each with its reason where it is listed.
 */
function featureBoundary({ own, features, depth, allowedFile, exceptions = [], message }) {
  const others = `(?:${features
    .filter((name) => name !== own)
    .map(escapeRegex)
    .join('|')})`;
  const up = (levels) => `(?:\\.\\./){${levels}}`;
  const allowed = exceptions.length > 0 ? `(?!(?:${exceptions.map(escapeRegex).join('|')})$)` : '';
  const file = allowedFile ? `(?!${allowedFile}$)` : '';
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^${allowed}(?:${up(depth)}|${up(depth + 1)}features/)${others}(?:/${file}|$)`,
            message,
          },
        ],
      },
    ],
  };
}

/** One config per feature and folder depth (files directly in the feature have depth 1). */
function featureBoundaries({ root, features, extensions, allowedFile, exceptions = {}, message }) {
  return features
    .flatMap((own) =>
      [1, 2, 3, 4].map((depth) => {
        const folder = `${root}/${own}/${'*/'.repeat(depth - 1)}`;
        return {
          files: [`${folder}*.${extensions}`],
          rules: featureBoundary({ own, features, depth, allowedFile, message }),
        };
      }),
    )
    .concat(
      Object.entries(exceptions).map(([file, paths]) => ({
        files: [`${root}/${file}`],
        rules: featureBoundary({
          own: file.split('/')[0],
          features,
          depth: file.split('/').length - 1,
          allowedFile,
          exceptions: paths,
          message,
        }),
      })),
    );
}

const SERVER_FEATURE_MESSAGE =
  'A feature uses another feature only through its *.service.ts; move shared code into a neutral module (decision 121).';
const WEB_FEATURE_MESSAGE =
  'Web features do not import each other; move shared code into components/ or lib/ (decision 121).';
const NO_FEATURE = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex: '(?:^|/)features/',
          message:
            'Shared layers import no feature; only app.ts (server) and web/src/app wire features together (decision 121).',
        },
      ],
    },
  ],
};

/** Crossings allowed as exceptions: file → exact import paths. None today; keep it that way. */
const SERVER_FEATURE_EXCEPTIONS = {};

/** Syntax only server/src/policies/ may use (decision 120). */
const POLICY_SYNTAX = [
  {
    selector: 'MemberExpression[property.name=/^(isAdmin|isSuperAdmin)$/]',
    message: 'Ask server/src/policies/ whether someone may see or change something (decision 120).',
  },
  {
    selector:
      'CallExpression[callee.property.name=/^(where|orWhere|whereRef|on|onRef)$/][arguments.0.value=/^[a-z]+_roles\\.role_id$/]',
    message:
      "Filter rows by the viewer's roles with the Kysely filters of server/src/policies/ (decision 120).",
  },
  {
    // An alias would hide the role filter from the rule above.
    selector:
      'CallExpression[callee.property.name=/^(selectFrom|innerJoin|leftJoin)$/][arguments.0.value=/^[a-z]+_roles as /]',
    message:
      'Filter rows by roles with the Kysely filters of server/src/policies/, without aliasing the role table (decision 120).',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'e2e/.tmp/**',
      'bench/.tmp/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `import { type X } from 'm'` keeps `import 'm'` in the build: a schema module (and zod) in a
      // page's first load for a type (decision 184).
      '@typescript-eslint/no-import-type-side-effects': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: [
      'server/src/*.ts',
      'server/src/{book,credentials,db,http,mail,maintenance,ops,plugins,policies,processes,rate-limit,sealing,storage}/**/*.ts',
      'web/src/{components,lib}/**/*.{ts,tsx}',
    ],
    ignores: ['server/src/app.ts', 'server/src/server.ts', 'server/src/cli.ts', '**/*.test.{ts,tsx}'],
    rules: NO_FEATURE,
  },
  ...featureBoundaries({
    root: 'server/src/features',
    features: SERVER_FEATURES,
    extensions: 'ts',
    allowedFile: '[^/]+\\.service\\.ts',
    exceptions: SERVER_FEATURE_EXCEPTIONS,
    message: SERVER_FEATURE_MESSAGE,
  }),
  ...featureBoundaries({
    root: 'web/src/features',
    features: WEB_FEATURES,
    extensions: '{ts,tsx}',
    message: WEB_FEATURE_MESSAGE,
  }),
  // policies
  // Visibility and permission rules come from server/src/policies/ only, and a feature reaches
  // another feature through its service: no feature imports another's repository, and the old
  // per-feature access modules (files.access and the like) must not come back.
  {
    // Whether someone is an administrator, and which role rows an object is visible through, is
    // asked only in policies/ (and set once, in the auth plugin that builds the principal).
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/policies/**', 'server/src/plugins/auth.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...POLICY_SYNTAX],
    },
  },
  {
    files: ['server/src/features/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./[^/]+/[^/]+\\.repository(\\.ts)?$',
              message: "Call the other feature's service; a feature's repository is its own.",
            },
            {
              regex: '(^|/)[^/]+\\.access(\\.ts)?$',
              message: 'Access rules live in server/src/policies/.',
            },
          ],
        },
      ],
    },
  },
  {
    // A service is its feature's door; it does not hand out its repository (decision 178).
    files: ['server/src/features/**/*.service.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...POLICY_SYNTAX,
        {
          selector:
            'ExportNamedDeclaration[source.value=/\\.repository(\\.ts)?$/], ExportAllDeclaration[source.value=/\\.repository(\\.ts)?$/]',
          message: "A service does not re-export a repository: callers use the service's own functions.",
        },
      ],
    },
  },
);
