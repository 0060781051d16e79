import type { Alongside } from '../store/contract.ts'
import type { Sql } from '../store/sql.ts'
import type { AccountStore, StandingColumns, TokenKey, TokenStanding } from '../store/storage.ts'
import { TokenError, type Principal } from './principal.ts'

/*
 * Whether a verified token still stands: not revoked, its client and user neither deleted nor
 * changed since it was issued; asked of the accounts alone, or alongside a statement the request
 * makes anyway (store/contract.ts's Alongside).
 */

/**
 * The principal when its token stands. A client made again under a deleted one's id has the same
 * (empty) generation until its secret or scope changes: its creation time tells the old
 * tokens apart (a token of the same second passes). It depends on the principal and the standing
 * alone, never on the time or anything else: a standing equal to one accepted is accepted
 * (PendingStanding.accepted, on which a create may go ahead in one statement).
 */
export function judged (principal: Principal, standing: TokenStanding): Principal {
  if (standing.revoked) throw new TokenError('revoked', 'the access token was revoked')
  const { client } = standing
  if (client === undefined || principal.issuedAt < Math.floor(Date.parse(client.created_at) / 1000)) {
    throw new TokenError('revoked', 'the client of the access token no longer exists')
  }
  if (client.generation !== principal.clientGeneration) {
    throw new TokenError('revoked', 'the client\'s credentials or scope changed after the access token was issued')
  }
  if (!standing.userExists) throw new TokenError('revoked', 'the user of the access token no longer exists')
  if (standing.userGeneration !== principal.userGeneration) {
    throw new TokenError('revoked', 'the user\'s claims changed after the access token was issued')
  }
  return principal
}

/** What names the standing of one of our tokens. */
export function keyOf (principal: Principal): TokenKey {
  const user = /^user:(\d+)$/.exec(principal.subject)
  return { jti: principal.jti as string, clientId: principal.clientId, userId: user === null ? null : Number(user[1]) }
}

/**
 * How one token's standing is asked, made once for each token verified: what names it, its select
 * list, and the answer last accepted. A write may go ahead on condition that the answer is still
 * that one (PendingStanding.accepted), and an answer equal to it is accepted without judging it
 * again (`judged` depends on the principal and the standing alone).
 */
export class StandingQuestion {
  readonly #principal: Principal
  readonly #key: TokenKey
  readonly #accounts: AccountStore
  /** The select list, made once. */
  readonly #columns: StandingColumns
  #accepted: readonly unknown[] | undefined

  constructor (principal: Principal, accounts: AccountStore) {
    this.#principal = principal
    this.#key = keyOf(principal)
    this.#accounts = accounts
    this.#columns = accounts.standingColumns(this.#key)
  }

  columns (): Sql {
    return this.#columns.columns
  }

  /** The values of the select list last accepted, if any; forgotten once refused or asked alone. */
  get accepted (): readonly unknown[] | undefined {
    return this.#accepted
  }

  /** Throws the TokenError of a standing that no longer holds, as the values of the select list say it. */
  judge (values: readonly unknown[]): void {
    const last = this.#accepted
    if (last !== undefined && last.length === values.length && last.every((value, i) => value === values[i])) return
    this.#accepted = undefined
    judged(this.#principal, this.#columns.standing([...values]))
    this.#accepted = values
  }

  /** Asks alone (its answer is not a select list's, to keep), and throws the TokenError of a standing that no longer holds. */
  async ask (): Promise<void> {
    this.#accepted = undefined
    judged(this.#principal, await this.#accounts.tokenStanding(this.#key))
  }
}

/**
 * A token's standing not asked yet: asked along with the request's first read of the collections
 * (`alongside`), or alone (`settle`) before the answer leaves, whichever comes first; once.
 * `refusal` makes the answer to send for a token that no longer stands.
 */
export class PendingStanding implements Alongside {
  #settled = false
  readonly #question: StandingQuestion
  readonly #refusal: (err: TokenError) => unknown

  constructor (question: StandingQuestion, refusal: (err: TokenError) => unknown) {
    this.#question = question
    this.#refusal = refusal
  }

  get settled (): boolean {
    return this.#settled
  }

  get accepted (): readonly unknown[] | undefined {
    return this.#question.accepted
  }

  columns (): Sql {
    return this.#question.columns()
  }

  answer (values: unknown[]): void {
    this.#settled = true
    try {
      this.#question.judge(values)
    } catch (err) {
      throw err instanceof TokenError ? this.#refusal(err) : err
    }
  }

  /** Asks alone, unless the answer came along with a read. */
  async settle (): Promise<void> {
    if (this.#settled) return
    this.#settled = true
    try {
      await this.#question.ask()
    } catch (err) {
      throw err instanceof TokenError ? this.#refusal(err) : err
    }
  }
}
