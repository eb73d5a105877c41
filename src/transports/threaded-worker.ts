/*
 * The threaded transport's HTTP worker. It runs the single-thread server of http-server.ts
 * as it is — Host and Origin checks, CORS, the body cap, timeouts, the 400 `invalid_request`
 * answers below HTTP, keep-alive drain, streamed bodies — over a stand-in for the sandbox whose
 * one handler forwards each request to the main thread, where the one sandbox answers it.
 * Every transport rule is the single-thread server's own code; only the answer crosses threads.
 */
import type { AddressInfo } from 'node:net'
import { parentPort, workerData } from 'node:worker_threads'
import { bufferedBodyOf, fetchHeaders, RawHeaders, type Answer, type WireRequest } from '../http/body.js'
import type { Sandbox } from '../index.js'
import { startServer, type RequestLog, type RunningServer } from './http-server.js'
import type { FromWorker, HeaderPairs, ToWorker, WorkerSetup } from './threaded-protocol.js'

const port = parentPort!
const setup = workerData as WorkerSetup
const post = (message: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer)

// The transport's error lines go out through the main thread's console, where the process's
// other output and any spy on it are (Errors cross structured clone with name, message and stack).
console.error = (...args: unknown[]) => {
  try {
    post({ t: 'console-error', args })
  } catch {
    post({ t: 'console-error', args: args.map(String) })
  }
}

interface Pending {
  resolve(answer: Answer | undefined): void
  reject(error: Error): void
}
/** Requests sent to the main thread, by id, until their answer (or its head, for a stream) is back. */
const pending = new Map<number, Pending>()
/** Streamed bodies: the controller and the pull waiting for the next chunk. */
const streams = new Map<number, { controller: ReadableStreamDefaultController<Uint8Array>; pulled?: () => void }>()
let nextId = 1

function recordOf(pairs: HeaderPairs): Record<string, string> {
  const record: Record<string, string> = {}
  for (let i = 0; i < pairs.length; i += 2) record[pairs[i]] = pairs[i + 1]
  return record
}

function streamedResponse(id: number, status: number, pairs: HeaderPairs): Response {
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        streams.set(id, { controller })
      },
      pull() {
        const stream = streams.get(id)
        if (!stream) return
        return new Promise<void>((resume) => {
          stream.pulled = resume
          post({ t: 'pull', id })
        })
      },
      cancel() {
        streams.delete(id)
        post({ t: 'cancel', id })
      },
    },
    { highWaterMark: 0 },
  )
  return new Response(body, { status, headers: fetchHeaders(pairs) })
}

/** The request waiting for this answer, no longer waiting. */
function takePending(id: number): Pending | undefined {
  const waiting = pending.get(id)
  pending.delete(id)
  return waiting
}

port.on('message', (message: ToWorker) => {
  switch (message.t) {
    case 'answer': {
      const waiting = takePending(message.id)
      waiting?.resolve({ status: message.status, headers: recordOf(message.headers), text: message.text })
      return
    }
    case 'none': {
      const waiting = takePending(message.id)
      waiting?.resolve(undefined)
      return
    }
    case 'stream': {
      const waiting = takePending(message.id)
      if (waiting) waiting.resolve(streamedResponse(message.id, message.status, message.headers))
      else post({ t: 'cancel', id: message.id })
      return
    }
    case 'chunk': {
      const stream = streams.get(message.id)
      if (!stream) return
      stream.controller.enqueue(message.chunk)
      stream.pulled?.()
      stream.pulled = undefined
      return
    }
    case 'end': {
      const stream = streams.get(message.id)
      streams.delete(message.id)
      stream?.controller.close()
      stream?.pulled?.()
      return
    }
    case 'error': {
      const waiting = takePending(message.id)
      // The same kind of error the single-thread server's dispatcher would have thrown.
      waiting?.reject(
        message.name === 'AbortError'
          ? new DOMException(message.message, 'AbortError')
          : Object.assign(new Error(message.message), { name: message.name, stack: message.stack }),
      )
      return
    }
    case 'connections': {
      const { id } = message
      if (!running) return post({ t: 'connections', id, count: 0 })
      running.server.getConnections((_error, count) => post({ t: 'connections', id, count: count ?? 0 }))
      return
    }
    case 'close':
      void running?.close().then(() => {
        post({ t: 'closed' })
        port.close()
      })
      return
  }
})

/**
 * The worker's dispatcher: sends a request the transport let through to the main thread, as it
 * is; resolves with its answer (undefined: no handler matched). No Fetch object is made here.
 */
function forward(request: WireRequest): Promise<Answer | undefined> {
  return new Promise<Answer | undefined>((resolve, reject) => {
    const id = nextId++
    // The transport builds every request's headers from node:http's raw list.
    const headers: HeaderPairs = (request.headers as RawHeaders).pairs.slice()
    // A copy the size of the body, transferred (the transport's buffer may be a slice of a shared pool).
    const buffered = bufferedBodyOf(request)
    const body = buffered !== undefined && buffered.length > 0 ? Uint8Array.prototype.slice.call(buffered) : undefined
    // The client went away: abort the main thread's request too, and wait for its answer as the
    // single-thread server waits for its dispatcher (a long-poll rejects, an ordinary route answers).
    // Also while a streamed body is being written: the main thread's handler (an event stream)
    // cleans up on its request's abort.
    const onAbort = () => {
      if (pending.has(id) || streams.has(id)) post({ t: 'abort', id })
    }
    pending.set(id, { resolve, reject })
    request.signal.addEventListener('abort', onAbort, { once: true })
    post(
      { t: 'request', id, method: request.method, url: request.url, headers, body },
      body ? [body.buffer as ArrayBuffer] : undefined,
    )
  })
}

const keys = new Set(setup.keys)
/** What http-server.ts reads of a sandbox besides its dispatcher: the base URL, the key check and the admin token. */
const standIn = {
  baseUrl: setup.baseUrl,
  adminToken: setup.adminToken,
  teamTokens: setup.teamTokens,
  authenticate: (token: string) => (keys.has(token) ? { key: token } : undefined),
} as unknown as Sandbox

let running: RunningServer | undefined
const options = {
  port: setup.port,
  host: setup.host,
  timeouts: setup.timeouts,
  corsOrigins: setup.corsOrigins,
  allowedHosts: setup.allowedHosts,
  onRequest: setup.log ? (entry: RequestLog) => post({ t: 'log', entry }) : undefined,
  dispatch: forward,
}
startServer(standIn, options).then(
  (started) => {
    running = started
    post({ t: 'listening', port: started.port, url: started.url, address: started.server.address() as AddressInfo })
  },
  (error: NodeJS.ErrnoException) => {
    post({ t: 'failed', code: error.code, message: error.message })
    port.close()
  },
)
