/**
 * One SPAMC exchange with SpamAssassin's `spamd` over TCP (the protocol spamc speaks: a request
 * line, headers, the message; spamd answers and closes). node:net is reached through
 * `process.getBuiltinModule` when called, so this module imports nothing a browser bundle would
 * choke on, and nothing at load time. Bounded: connecting and the whole exchange each have a
 * deadline, and an answer larger than `maxBytes` is cut off (the socket destroyed).
 */

type Net = typeof import('node:net')

export interface SpamdExchangeOptions {
  /** The whole exchange, connecting included (ms). */
  timeoutMs: number
  /** Connecting alone (ms). */
  connectTimeoutMs: number
  /** The most of the answer read (bytes). */
  maxBytes: number
}

/** Why an exchange failed: `connect` (refused, unknown host, too slow to connect), `timeout`, `too-large`, `closed`. */
export class SpamdError extends Error {
  constructor(
    readonly reason: 'connect' | 'timeout' | 'too-large' | 'closed' | 'unsupported',
    message: string,
  ) {
    super(message)
    this.name = 'SpamdError'
  }
}

function nodeNet(): Net | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  return typeof proc?.getBuiltinModule === 'function' ? (proc.getBuiltinModule('node:net') as Net) : undefined
}

/** Sends `request` (the whole SPAMC request) to host:port and resolves with spamd's whole answer. */
export function spamdExchange(
  host: string,
  port: number,
  request: Uint8Array,
  options: SpamdExchangeOptions,
): Promise<Uint8Array> {
  const net = nodeNet()
  if (!net) return Promise.reject(new SpamdError('unsupported', 'no TCP sockets here (node:net is needed)'))
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = []
    let size = 0
    let connected = false
    let settled = false
    const socket = net.connect({ host, port })
    const fail = (error: SpamdError) => {
      if (settled) return
      settled = true
      clearTimeout(total)
      clearTimeout(connecting)
      socket.destroy()
      reject(error)
    }
    const total = setTimeout(
      () => fail(new SpamdError('timeout', `no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    )
    const connecting = setTimeout(() => {
      if (!connected) fail(new SpamdError('connect', `could not connect within ${options.connectTimeoutMs} ms`))
    }, options.connectTimeoutMs)
    socket.once('connect', () => {
      connected = true
      clearTimeout(connecting)
      socket.end(request)
    })
    socket.on('data', (chunk: Uint8Array) => {
      size += chunk.length
      if (size > options.maxBytes)
        return fail(new SpamdError('too-large', `the answer is over ${options.maxBytes} bytes`))
      chunks.push(chunk)
    })
    socket.on('error', (error: NodeJS.ErrnoException) => fail(socketError(error, connected)))
    socket.once('end', () => {
      if (settled) return
      settled = true
      clearTimeout(total)
      clearTimeout(connecting)
      socket.destroy()
      resolve(joined(chunks, size))
    })
  })
}

/** The chunks read, as one array of `size` bytes. */
function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.length
  }
  return all
}

/** A socket's error, named for when it came: before the connection or after. */
function socketError(error: NodeJS.ErrnoException, connected: boolean): SpamdError {
  return new SpamdError(
    connected ? 'closed' : 'connect',
    error.code ? `${error.code} (${error.message})` : error.message,
  )
}
