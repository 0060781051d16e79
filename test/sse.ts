import type { Test } from 'tap'

/*
 * A reader of Server-Sent Events over a real socket, for the change feed's tests: inject() waits
 * for the end of an answer, and a stream has none.
 */

export interface Event { id: string, event: string, data: { id: number, record: Record<string, unknown> | null, at: string } }

export interface Stream {
  status: number
  headers: Headers
  events: Event[]
  comments: string[]
  ended: boolean
  /** Waits until `condition` holds, failing the test after a few seconds. */
  until: (condition: () => boolean, what: string) => Promise<void>
  close: () => void
}

/** Opens a stream of `url` (closed at teardown) and reads its events and comments as they come. */
export async function openStream (t: Test, url: string, headers: Record<string, string>): Promise<Stream> {
  const abort = new AbortController()
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal })
  const stream: Stream = {
    status: res.status,
    headers: res.headers,
    events: [],
    comments: [],
    ended: false,
    until: async (condition, what) => {
      for (let waited = 0; !condition(); waited += 10) {
        if (waited > 5000) throw new Error(`waited 5 s for ${what}`)
        await new Promise(resolve => setTimeout(resolve, 10))
      }
    },
    close: () => abort.abort()
  }
  t.teardown(stream.close)
  if (res.status !== 200 || res.body === null) {
    stream.ended = true
    return stream
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  ;(async () => {
    let text = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      text += value
      let end: number
      while ((end = text.indexOf('\n\n')) !== -1) {
        const block = text.slice(0, end)
        text = text.slice(end + 2)
        if (block.startsWith(':')) {
          stream.comments.push(block.slice(1).trim())
          continue
        }
        const fields = Object.fromEntries(block.split('\n')
          .map(line => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]))
        stream.events.push({ id: fields.id as string, event: fields.event as string, data: JSON.parse(fields.data as string) })
      }
    }
  })().catch(() => {}).finally(() => { stream.ended = true })
  return stream
}
