import { findSessionWithOwner } from '../db/repositories/sessions.ts'
import { readAccessGeneration } from '../db/repositories/accessGeneration.ts'
import { actorOf, withMemberships, type Actor } from './actor.ts'
import { checkSignIn, tokenHashOf, type SessionOwner } from './auth.ts'
import type { ServiceContext } from './context.ts'

/*
 * The actor of a request, cached per session token, so a request reads one tiny row instead of
 * the session, the roles and grants and the memberships (3 to 4 queries).
 *
 * Why it is exact: every write to a table an actor is made of (sessions, accounts, people, roles,
 * grants, role assignments, project members, project roles and their queues and centers) bumps
 * the access generation in the same transaction, by trigger (migration 20261204_0025), whichever
 * process or code path writes. A request reads the generation first and uses only an entry
 * cached under that very number; an entry is built from reads made after its generation was read,
 * so it holds at least that state, and the first request to start after a commit reads a larger
 * number and builds afresh. The clock's checks (expiry, account lock) run on every use.
 */

interface Entry {
  found: NonNullable<SessionOwner>
  actor: Actor
}

interface Cache {
  generation: number
  entries: Map<string, Entry>
}

/** A bound on memory: past it the oldest entry goes (it is read again when next used). */
const maxEntries = 10_000

/** Per database, so test apps sharing a process never read each other's actors. */
const caches = new WeakMap<object, Cache>()
/** An actor handed out with its memberships read; keyed by the cached actor object itself. */
const withMembershipsOf = new WeakMap<Actor, Actor>()

/** The cache at `generation`, a newer one replacing it; none for a request that read an older number. */
function cacheAt(db: object, generation: number): Cache | undefined {
  let cache = caches.get(db)
  if (!cache || generation > cache.generation) caches.set(db, (cache = { generation, entries: new Map() }))
  return cache.generation === generation ? cache : undefined
}

/** The signed-in caller of a token with their roles' grants: checked as `authenticate` does, 401 otherwise. */
export async function actorForToken(ctx: ServiceContext, token: string | undefined): Promise<Actor> {
  const hash = tokenHashOf(token)
  const cache = cacheAt(ctx.db, await readAccessGeneration(ctx.db))
  const hit = cache?.entries.get(hash)
  if (hit) {
    checkSignIn(ctx, hit.found)
    return hit.actor
  }
  const found = await findSessionWithOwner(ctx.db, hash)
  const actor = await actorOf(ctx.db, checkSignIn(ctx, found))
  if (cache && found) {
    if (cache.entries.size >= maxEntries) cache.entries.delete(cache.entries.keys().next().value!)
    cache.entries.set(hash, { found, actor })
  }
  return actor
}

/**
 * The actor with their project memberships, read once per cached actor: that object is handed
 * out only while the generation it was cached under is current, and the memberships are read
 * after that generation was.
 */
export async function actorWithMemberships(ctx: ServiceContext, actor: Actor): Promise<Actor> {
  const known = withMembershipsOf.get(actor)
  if (known) return known
  const full = await withMemberships(ctx.db, actor)
  withMembershipsOf.set(actor, full)
  return full
}

/**
 * A store kept with each actor object, for facts about the caller that many requests need (the
 * list columns they chose, the names their pages show), filled as they are read. Exact for the
 * reason the memberships are: an actor object is handed out only while the generation it was
 * cached under is current, and what goes into its store is read after that generation was; so
 * every table such a fact is read from must bump the generation too (migration 20261205_0026).
 * An actor built afresh for a stale generation is a new object with an empty store.
 */
export function actorStore<T>(create: () => T): (actor: Actor) => T {
  const stores = new WeakMap<Actor, T>()
  return (actor) => {
    let store = stores.get(actor)
    if (!store) stores.set(actor, (store = create()))
    return store
  }
}
