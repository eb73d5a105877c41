import { createServer } from 'node:net'

/**
 * A free loopback port for a child process to bind, picked at random below Linux's ephemeral range
 * (32768–60999), where the OS gives the `listen(0)` of other test files their ports: a port the OS
 * handed out and this released could be handed out again before the caller binds it (it happened in
 * CI: a doc block's `curl` reached another file's server). Checked free by binding it once.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    if (await bindable(port)) return port
  }
  throw new Error('freePort: no free port in 20000–31999 after 50 tries')
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}
