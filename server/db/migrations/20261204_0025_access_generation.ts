import { sql, type Kysely } from 'kysely'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>

/**
 * What a request's actor is resolved from: the session with its account and person, the system
 * roles and their grants, the project memberships with their project roles' queues and centers.
 * Any write to these tables bumps the one access generation in its own transaction, so a server
 * that cached an actor under generation n knows it is stale the moment it reads n + 1
 * (server/services/actorCache.ts). Triggers, not calls in the services: no write can forget it,
 * whatever code path or process makes it.
 */
export const accessTables = [
  'session',
  'account',
  'app_user',
  'role',
  'role_grant',
  'user_role',
  'project_member',
  'project_role',
  'project_role_queue',
  'project_role_center',
] as const

const sqliteEvents = ['insert', 'update', 'delete'] as const

export async function up(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await db.schema
    .createTable('access_generation')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .execute()
  await db.insertInto('access_generation').values({ id: 1, n: 0 }).execute()
  if (dialect === 'postgres') {
    await sql`CREATE FUNCTION bump_access_generation() RETURNS trigger AS $$
      BEGIN UPDATE access_generation SET n = n + 1 WHERE id = 1; RETURN NULL; END; $$ LANGUAGE plpgsql`.execute(db)
  }
  await addGenerationTriggers(db, dialect, accessTables)
}

/** Every write to these tables bumps the access generation in the writer's transaction. */
export async function addGenerationTriggers(db: AnyDb, dialect: 'sqlite' | 'postgres', tables: readonly string[]): Promise<void> {
  if (dialect === 'postgres') {
    // BEFORE and per statement: the generation's row lock is taken before any row of the access
    // table, in the same order by every writer, so two such writes wait for each other rather
    // than deadlock on each other's rows.
    for (const t of tables) {
      await sql`CREATE TRIGGER ${sql.id(`${t}_access_generation`)} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(t)}
        FOR EACH STATEMENT EXECUTE FUNCTION bump_access_generation()`.execute(db)
    }
  } else {
    // SQLite has row triggers only, and one writer at a time: order cannot deadlock.
    for (const t of tables) {
      for (const e of sqliteEvents) {
        await sql`CREATE TRIGGER ${sql.id(`${t}_access_generation_${e}`)} AFTER ${sql.raw(e.toUpperCase())} ON ${sql.table(t)}
          BEGIN UPDATE access_generation SET n = n + 1 WHERE id = 1; END`.execute(db)
      }
    }
  }
}

export async function dropGenerationTriggers(db: AnyDb, dialect: 'sqlite' | 'postgres', tables: readonly string[]): Promise<void> {
  if (dialect === 'postgres') {
    for (const t of tables) await sql`DROP TRIGGER IF EXISTS ${sql.id(`${t}_access_generation`)} ON ${sql.table(t)}`.execute(db)
  } else {
    for (const t of tables)
      for (const e of sqliteEvents) await sql`DROP TRIGGER IF EXISTS ${sql.id(`${t}_access_generation_${e}`)}`.execute(db)
  }
}

export async function down(db: AnyDb, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await dropGenerationTriggers(db, dialect, accessTables)
  if (dialect === 'postgres') await sql`DROP FUNCTION IF EXISTS bump_access_generation()`.execute(db)
  await db.schema.dropTable('access_generation').execute()
}
