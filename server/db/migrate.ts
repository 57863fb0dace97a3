import { Migrator, type Migration, type MigrationProvider } from 'kysely'
import type { Db } from './connect.ts'
import * as accounts from './migrations/20261125_0001_accounts.ts'
import * as dictionary from './migrations/20261126_0002_dictionary.ts'
import * as indicatorFilters from './migrations/20261126_0003_indicator_filters.ts'
import * as indicatorSearch from './migrations/20261126_0004_indicator_search.ts'
import * as listIndexes from './migrations/20261126_0006_list_indexes.ts'
import * as choiceCodes from './migrations/20261127_0010_choice_codes.ts'
import * as versionSnapshot from './migrations/20261127_0011_version_snapshot.ts'
import * as backOffice from './migrations/20261128_0012_back_office.ts'
import * as auditObjects from './migrations/20261128_0013_audit_objects.ts'
import * as usersListIndexes from './migrations/20261128_0014_users_list_indexes.ts'
import * as projects from './migrations/20261129_0015_projects.ts'
import * as enrolment from './migrations/20261130_0016_enrolment.ts'
import * as studyData from './migrations/20261201_0017_study_data.ts'
import * as subjectList from './migrations/20261202_0018_subject_list.ts'
import * as entry from './migrations/20261202_0019_entry.ts'
import * as samples from './migrations/20261202_0020_samples.ts'
import * as followUp from './migrations/20261202_0021_followup.ts'
import * as attachments from './migrations/20261202_0022_attachments.ts'
import * as dataLoading from './migrations/20261203_0023_data_loading.ts'
import * as identifiers from './migrations/20261203_0024_identifiers.ts'
import * as accessGeneration from './migrations/20261204_0025_access_generation.ts'
import * as listCacheGeneration from './migrations/20261205_0026_list_cache_generation.ts'
import * as studyScreens from './migrations/20261206_0027_study_screens.ts'
import * as projectHistory from './migrations/20261206_0028_project_history.ts'
import * as investigatorGrants from './migrations/20261207_0029_investigator_grants.ts'
import * as monitorAuditLog from './migrations/20261207_0030_monitor_audit_log.ts'
import * as uploadMessageKey from './migrations/20261208_0031_upload_message_key.ts'
import * as researchAdminAuditLog from './migrations/20261209_0032_research_admin_audit_log.ts'
import * as downloadContents from './migrations/20261210_0033_download_contents.ts'
import * as downloadHeldScope from './migrations/20261211_0034_download_held_scope.ts'
import * as uploadForms from './migrations/20261212_0035_upload_forms.ts'
import * as retiredSampleNumbers from './migrations/20261213_0036_retired_sample_numbers.ts'
import * as renamedSampleNumbers from './migrations/20261214_0037_renamed_sample_numbers.ts'

/** In order; a name is never reused once it has run anywhere. */
const all = {
  '20261125_0001_accounts': accounts,
  '20261126_0002_dictionary': dictionary,
  '20261126_0003_indicator_filters': indicatorFilters,
  '20261126_0004_indicator_search': indicatorSearch,
  '20261126_0006_list_indexes': listIndexes,
  '20261127_0010_choice_codes': choiceCodes,
  '20261127_0011_version_snapshot': versionSnapshot,
  '20261128_0012_back_office': backOffice,
  '20261128_0013_audit_objects': auditObjects,
  '20261128_0014_users_list_indexes': usersListIndexes,
  '20261129_0015_projects': projects,
  '20261130_0016_enrolment': enrolment,
  '20261201_0017_study_data': studyData,
  '20261202_0018_subject_list': subjectList,
  '20261202_0019_entry': entry,
  '20261202_0020_samples': samples,
  '20261202_0021_followup': followUp,
  '20261202_0022_attachments': attachments,
  '20261203_0023_data_loading': dataLoading,
  '20261203_0024_identifiers': identifiers,
  '20261204_0025_access_generation': accessGeneration,
  '20261205_0026_list_cache_generation': listCacheGeneration,
  '20261206_0027_study_screens': studyScreens,
  '20261206_0028_project_history': projectHistory,
  '20261207_0029_investigator_grants': investigatorGrants,
  '20261207_0030_monitor_audit_log': monitorAuditLog,
  '20261208_0031_upload_message_key': uploadMessageKey,
  '20261209_0032_research_admin_audit_log': researchAdminAuditLog,
  '20261210_0033_download_contents': downloadContents,
  '20261211_0034_download_held_scope': downloadHeldScope,
  '20261212_0035_upload_forms': uploadForms,
  '20261213_0036_retired_sample_numbers': retiredSampleNumbers,
  '20261214_0037_renamed_sample_numbers': renamedSampleNumbers,
}

export type MigrationName = keyof typeof all

export function migrateToLatest(db: Db): Promise<void> {
  return migrateTo(db)
}

/** Up (or down) to the named migration, or to the latest; tests use a name to build older databases. */
export async function migrateTo(db: Db, target?: MigrationName): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {}
      for (const [name, m] of Object.entries(all)) {
        out[name] = { up: (k) => m.up(k, db.dialect), down: (k) => m.down(k, db.dialect) }
      }
      return out
    },
  }
  const migrator = new Migrator({ db: db.kysely, provider })
  const { error, results } = await (target === undefined ? migrator.migrateToLatest() : migrator.migrateTo(target))
  const failed = results?.find((r) => r.status === 'Error')
  if (error) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error })
}
