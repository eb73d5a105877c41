/**
 * Reads `GET /__sandbox/events` with fetch and a ReadableStream rather than EventSource:
 * EventSource cannot send the admin token header, and the token must never go in a URL.
 * Reconnects by itself (1 s, growing to 10 s); `onOpen` runs on every (re)connection, so the
 * caller re-fetches what it may have missed.
 */
import { adminToken, askForToken, authHeaders } from './api.js'

export interface EventStreamHandlers {
  onOpen(): void
  onEvent(type: string, data: string): void
  onDown(reason: string, needsToken?: boolean): void
}

/** Parses the text/event-stream format, fed chunk by chunk. */
export class EventStreamParser {
  private buffer = ''
  private type = ''
  private data: string[] = []

  constructor(private readonly emit: (type: string, data: string) => void) {}

  push(chunk: string): void {
    this.buffer += chunk
    let newline: number
    while ((newline = this.buffer.search(/\r\n|\r|\n/)) !== -1) {
      const line = this.buffer.slice(0, newline)
      const width = this.buffer.startsWith('\r\n', newline) ? 2 : 1
      this.buffer = this.buffer.slice(newline + width)
      this.line(line)
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) this.emit(this.type || 'message', this.data.join('\n'))
      this.type = ''
      this.data = []
      return
    }
    if (line.startsWith(':')) return // a comment: the server's keep-alive ping
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') this.type = value
    else if (field === 'data') this.data.push(value)
  }
}

/** Opens the stream and keeps it open until the returned function is called. */
export function openEventStream(path: string, handlers: EventStreamHandlers): () => void {
  const controller = new AbortController()
  let delay = 1000
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  const run = async () => {
    while (!controller.signal.aborted) {
      try {
        const sent = adminToken()
        const response = await fetch(path, {
          headers: { Accept: 'text/event-stream', ...authHeaders() },
          signal: controller.signal,
          cache: 'no-store',
          credentials: 'omit',
        })
        if (response.status === 401) {
          handlers.onDown('The sandbox controls need the admin token.', true)
          if (!(await askForToken(sent))) return // the user declined: enterToken() reloads the page
          continue
        }
        if (!response.ok || !response.body) throw new Error(`the event stream answered ${response.status}`)
        delay = 1000
        handlers.onOpen()
        const parser = new EventStreamParser(handlers.onEvent)
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          parser.push(value)
        }
        handlers.onDown('The event stream closed; reconnecting…')
      } catch (error) {
        if (controller.signal.aborted) return
        handlers.onDown(`Disconnected from sendbox (${(error as Error).message}); reconnecting…`)
      }
      await sleep(delay)
      delay = Math.min(delay * 2, 10_000)
    }
  }
  void run()
  return () => controller.abort()
}
