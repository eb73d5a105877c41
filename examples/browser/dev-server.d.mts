/** Serves the browser example (public/ and its bundle built in memory) on `host:port`; `port: 0` picks a free one. */
export declare function startDevServer(options?: {
  port?: number
  host?: string
}): Promise<{ url: string; stop: () => Promise<void> }>
