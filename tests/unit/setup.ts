import { loadLang } from '../../src/i18n/index.ts'

// The app fetches English on demand (src/i18n/index.ts); views under test speak both languages.
await loadLang('en')
