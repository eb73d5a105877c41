import { createServer } from 'node:http'
import { randomUUID } from 'node:crypto'

/**
 * A tiny app under test: a sign-up page whose server sends a verification email through the
 * sandbox API (as a real backend would), and a /verify page the emailed link opens.
 */
export async function startApp(apiUrl: string): Promise<{ url: string; close: () => Promise<void> }> {
  const pending = new Map<string, string>()
  let origin = ''
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', origin)
    if (req.method === 'POST' && url.pathname === '/signup') {
      let body = ''
      for await (const chunk of req) body += chunk
      const email = String(JSON.parse(body).email)
      const token = randomUUID()
      pending.set(token, email)
      const sent = await fetch(`${apiUrl}/email/send`, {
        method: 'POST',
        headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
        body: JSON.stringify({
          to: email,
          subject: 'Confirm your email',
          html: `<p>Welcome! <a href="${origin}/verify?token=${token}">Confirm</a></p>`,
        }),
      })
      res.writeHead(sent.ok ? 200 : 502, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: sent.ok }))
      return
    }
    if (url.pathname === '/verify') {
      const email = pending.get(url.searchParams.get('token') ?? '')
      res
        .writeHead(email ? 200 : 404, { 'content-type': 'text/html' })
        .end(`<h1>${email ? `Verified ${email}` : 'Unknown link'}</h1>`)
      return
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html>
<form id="f"><input id="email" type="email" required><button>Sign up</button></form><p id="status"></p>
<script>
document.getElementById('f').addEventListener('submit', async (event) => {
  event.preventDefault()
  const answer = await fetch('/signup', { method: 'POST', body: JSON.stringify({ email: document.getElementById('email').value }) })
  document.getElementById('status').textContent = answer.ok ? 'Check your inbox' : 'Could not send'
})
</script>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  return { url: origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
