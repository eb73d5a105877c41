/*
 * The messages between the threaded transport's main thread (the sandbox and its dispatcher)
 * and its HTTP worker (sockets, parsing, every transport rule of http-server.ts). Plain objects
 * and transferred byte arrays: structured clone, nothing shared.
 */
import type { TeamToken } from '../domain/team-tokens.js'
import type { RequestLog, ServerTimeouts } from './http-server.js'

/** What the worker needs to run the node:http server without the sandbox. */
export interface WorkerSetup {
  /** The sandbox's base URL: the worker builds the same `Request` URLs as the single-thread server. */
  baseUrl: string
  /** Configured API keys: the transport skips reading a body the guard will refuse (401). */
  keys: string[]
  adminToken: string | undefined
  /** Team tokens: a request offering one is let through to the dispatcher, which scopes it. */
  teamTokens: readonly TeamToken[]
  port: number | undefined
  host: string | undefined
  timeouts: ServerTimeouts | undefined
  corsOrigins: readonly string[] | undefined
  allowedHosts: readonly string[] | undefined
  /** Whether the main thread wants a log entry per request. */
  log: boolean
}

/** Header names and values, alternating (Headers order, names lower-cased). */
export type HeaderPairs = string[]

export type FromWorker =
  | { t: 'request'; id: number; method: string; url: string; headers: HeaderPairs; body: Uint8Array | undefined }
  /** The client went away before the answer: abort the Request's signal (long-polls drop their waiter). */
  | { t: 'abort'; id: number }
  /** The socket can take the next chunk of a streamed body. */
  | { t: 'pull'; id: number }
  /** The client went away during a streamed body: stop reading it. */
  | { t: 'cancel'; id: number }
  | { t: 'log'; entry: RequestLog }
  /** What the worker's transport writes with console.error (its "unexpected server error" lines): said by the main thread. */
  | { t: 'console-error'; args: unknown[] }
  | { t: 'listening'; port: number; url: string; address: { address: string; family: string; port: number } }
  | { t: 'connections'; id: number; count: number }
  | { t: 'failed'; code: string | undefined; message: string }
  | { t: 'closed' }

export type ToWorker =
  /** An answer whose JSON text the guard made (the common case): written with a Content-Length. */
  | { t: 'answer'; id: number; status: number; headers: HeaderPairs; text: string }
  /** No handler matched: the worker's transport answers its 404. */
  | { t: 'none'; id: number }
  /** An answer with a body stream (server-sent events, a document): chunks follow, one per `pull`. */
  | { t: 'stream'; id: number; status: number; headers: HeaderPairs }
  | { t: 'chunk'; id: number; chunk: Uint8Array }
  | { t: 'end'; id: number }
  /** The dispatcher threw on the main thread (a sandbox bug, or the client's abort): thrown in the worker alike. */
  | { t: 'error'; id: number; name: string; message: string; stack: string | undefined }
  /** Stop accepting, answer what is in flight, close keep-alive connections as they become idle. */
  | { t: 'close' }
  /** How many connections the worker's server holds (`getConnections`). */
  | { t: 'connections'; id: number }
