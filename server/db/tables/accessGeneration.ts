/**
 * One row (id 1): a counter that every write to a table an actor is resolved from bumps in its own
 * transaction, by trigger (migration 20261204_0025).
 */
export interface AccessGenerationTable {
  id: number
  n: number
}
