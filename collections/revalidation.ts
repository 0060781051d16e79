import { createHash } from 'node:crypto'
import type { Counting } from '../store/contract.ts'

/*
 * The ETag of a list answer. A page's items, total and links are a function of the request (its
 * origin, path and query, and how much it counts) and of the records of the collections it reads
 * (the listed one, and those it embeds). The stores keep a stamp of each collection that changes
 * with every committed write, by any process, and never comes back (CollectionStores.changes): a tag made of
 * the request and the stamps, read before the page, is the same only while none of those
 * collections changed. So a request whose If-None-Match names it is answered 304 from the
 * stamps alone, without reading, counting or serializing the page.
 *
 * The tag is weak (RFC 9110 §8.8.1): it stands for the page as the collection was, not for its
 * bytes. A stamp read before the page may be older than the page it vouches for (a write
 * committed in between); then the next request sees a newer stamp and answers the page again,
 * never the other way round.
 */

/** The weak ETag of a list answer: a digest of what decides it. */
export function listEtag (stamps: readonly string[], origin: string, url: string, counting: Counting): string {
  const digest = createHash('sha256').update(`${stamps.join(' ')}\n${origin}\n${url}\n${counting}`).digest('base64url')
  return `W/"${digest.slice(0, 27)}"`
}

/**
 * The weak ETag of a list answered to a token bound by access rules (store/bound.ts): a
 * digest of the answer itself, its body as sent, total and links. The collections' stamps change
 * with every write, those it may not see too, so a tag of them would tell it of those; this one is
 * the same while what it sees is, at the cost of reading the page before a 304.
 */
export function seenEtag (body: string, total: number | undefined, link: string, counting: Counting): string {
  const digest = createHash('sha256').update(`${body}\n${total ?? ''}\n${link}\n${counting}`).digest('base64url')
  return `W/"${digest.slice(0, 27)}"`
}
