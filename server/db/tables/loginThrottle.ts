/** Failed sign-ins per typed username, known or not, so a lock reveals nothing. */
export interface LoginThrottleTable {
  username: string
  failures: number
  first_failure_at: string
  locked_until: string | null
}
