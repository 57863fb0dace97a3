// Lint: TypeScript rules plus the import zones of DESIGN.md §2 (imports flow one way).
import fs from 'node:fs'
import tseslint from 'typescript-eslint'
import importPlugin from 'eslint-plugin-import'

const features = fs.existsSync('src/features') ? fs.readdirSync('src/features') : []

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.tmp/', 'data/', 'test-results/'] },
  ...tseslint.configs.recommended,
  {
    plugins: { import: importPlugin },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './contract', from: ['./src', './server', './commands'], message: 'contract/ imports nothing of ours' },
            { target: './commands', from: ['./src', './server'], message: 'commands reach the world only through ctx' },
            { target: './src', from: './server', message: 'the client never imports the server' },
            { target: './server', from: ['./src', './commands'], message: 'the server never imports the client' },
            {
              target: ['./src/features', './src/ui', './src/lib', './src/api', './src/state', './src/i18n'],
              from: './src/app',
              message: 'nothing imports src/app',
            },
            {
              target: ['./src/ui', './src/lib', './src/api', './src/state', './src/i18n'],
              from: './src/features',
              message: 'shared layers do not import features',
            },
            ...features.map((f) => ({
              target: `./src/features/${f}`,
              from: './src/features',
              except: [`./${f}`],
              message: 'no feature imports another',
            })),
            { target: './server/services', from: ['./server/routes', './server/plugins'], message: 'services know no HTTP' },
            {
              target: './server/db',
              from: ['./server/services', './server/routes', './server/plugins'],
              message: 'db is the bottom layer',
            },
          ],
        },
      ],
    },
  },
  {
    // Blueprint names a dialog's (and a drawer's) close button "Close", and a select's caret "Open
    // dropdown", in every language: the app's own speak the user's.
    files: ['src/**/*.tsx'],
    ignores: ['src/ui/Dialog.tsx', 'src/ui/Drawer.tsx', 'src/ui/HTMLSelect.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@blueprintjs/core',
              importNames: ['Dialog'],
              message: 'use src/ui/Dialog.tsx (its close button speaks the user’s language)',
            },
            {
              name: '@blueprintjs/core',
              importNames: ['HTMLSelect'],
              message: 'use src/ui/HTMLSelect.tsx (its caret reads no English title on Chinese screens)',
            },
          ],
        },
      ],
    },
  },
  {
    // Only repositories build SQL (DESIGN §2): services and routes call them. Type imports of
    // kysely stay allowed. The dictionary-exchange store is being folded into the repositories
    // (issue 7, uploads work) and is exempt until then.
    files: ['server/**/*.ts'],
    ignores: ['server/db/**', 'server/services/dictionaryExchange/store.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'kysely', allowTypeImports: true, message: 'only server/db builds SQL: call a repository' }] },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression > MemberExpression.callee > Identifier.property[name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]',
          message: 'only server/db builds SQL: call a repository',
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
)
