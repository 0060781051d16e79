import type { Owner } from '../store/contract.ts'
import type { AccountStore } from '../store/storage.ts'
import { claimsOf, type Claims } from './claims.ts'
import type { TokenService } from './tokens.ts'

/**
 * What a token's account may do now, for the work it left to be done later (a job, a webhook's
 * deliveries), which can outlive the token: one of our own clients has the scopes it (and its
 * user) still has among the token's, in its current generation, and the claims the account has
 * now (auth/claims.ts), so deleting a client, taking a scope away or changing claims applies to
 * that work too. An external issuer's grants cannot be looked up: its token's scopes and claims
 * stand, as its subject's, for as long as that issuer is accepted.
 */
export async function grantOf (
  { owner, scope, claims }: { owner: Owner, scope: string, claims: string },
  tokens: TokenService,
  accounts: AccountStore
): Promise<{ scope: string, clientGeneration: string, userGeneration: string, claims: Claims, subjectIssuer?: string }> {
  if (owner.issuer !== tokens.settings.issuer) {
    return { scope, clientGeneration: '', userGeneration: '', claims: claimsOf(claims), subjectIssuer: owner.issuer }
  }
  const client = await accounts.client(owner.clientId)
  const allowed = new Set(client?.scope.split(' '))
  const userId = /^user:(\d+)$/.exec(owner.subject)
  const user = userId === null ? undefined : await accounts.userById(Number(userId[1]))
  if (userId !== null) {
    const userScopes = new Set(user?.scope.split(' '))
    for (const s of allowed) if (!userScopes.has(s)) allowed.delete(s)
  }
  return {
    scope: scope.split(' ').filter(s => allowed.has(s)).join(' '),
    clientGeneration: client?.generation ?? '',
    userGeneration: user?.generation ?? '',
    claims: claimsOf((userId === null ? client?.claims : user?.claims) ?? '{}')
  }
}
